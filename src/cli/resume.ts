// --resume/--session/--continue: the saved session a launch goes on with, TUI or headless.
import type { ConversationMessage } from "../protocol/conversation.js";
import type { SessionRecorder } from "../session/recorder.js";
import type { SessionRead } from "../session/load.js";
import { fail } from "./app-process.js";

export interface ResumeFlags {
  resume?: string;
  session?: string;
  continue?: boolean;
}

/** Resumes --resume/--session/--continue into the recorder; returns the saved conversation. */
export async function resumeFromFlags(
  flags: ResumeFlags,
  recorder: SessionRecorder,
  dir: string,
  cwd: string,
  /** The session's file as the first frame read it: not read again if unchanged. */
  known?: SessionRead,
): Promise<{ conversation: ConversationMessage[]; model?: string; notices: string[]; tokensUsed?: number }> {
  const resumeId = flags.resume ?? flags.session;
  if (!resumeId && !flags.continue) return { conversation: [], notices: [] };
  const { latestSessionFor, resumeInto } = await import("./resume-into.js");
  let target = resumeId;
  if (!target) {
    const latest = latestSessionFor(dir, cwd);
    if (!latest) fail(`No saved session for ${cwd} yet.`);
    target = latest.id;
  }
  const opened = resumeInto(recorder, dir, target, known);
  if (!opened.ok) fail(opened.error);
  return opened;
}
