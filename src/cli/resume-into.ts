// Opening a saved session into the recorder: the TUI's /resume and a launch's --resume,
// --session or --continue (cli/resume.ts, which loads this module only when a flag asks).
import type { ConversationMessage } from "../protocol/conversation.js";
import type { SessionRecorder } from "../session/recorder.js";
import { resumeSession } from "../session/resume.js";
import type { SessionRead } from "../session/load.js";

export { latestSessionFor } from "../session/list.js";

/** Resumes a saved session into the recorder (a fork when another agent0 has it open). */
export function resumeInto(
  recorder: SessionRecorder,
  dir: string,
  idOrPrefix: string,
  /** The session's file as the first frame read it. */
  known?: SessionRead,
):
  | { ok: true; conversation: ConversationMessage[]; model?: string; notices: string[]; tokensUsed: number }
  | { ok: false; error: string } {
  const resumed = resumeSession(dir, idOrPrefix, undefined, known);
  if (!resumed.ok) return resumed;
  recorder.adopt(resumed.session);
  return {
    ok: true,
    conversation: resumed.session.conversation,
    model: resumed.session.model,
    notices: resumed.notices,
    tokensUsed: resumed.tokensUsed,
  };
}
