import { offerLines, type EngineOffer } from "../protocol/engine-offer.js";
import { startAgent, type StartedAgent } from "./agent-start.js";
import { SIGPIPE_EXIT } from "./app-process.js";
import { HostedSession } from "./hosted-session.js";
import type { AgentEvent, DoneReason } from "../protocol/agent-event.js";
import type { ConversationMessage, ImageAttachment } from "../protocol/conversation.js";
import type { ResourceMention } from "../context/mention-parse.js";
import { userMessage } from "../protocol/user-message.js";
import type { RunConfig } from "../protocol/run-config.js";
import type { Logger } from "../session/log.js";
import type { SessionRecorder } from "../session/recorder.js";
import { safeJson, sanitize } from "../render/sanitize.js";

export type OutputFormat = "text" | "json" | "stream-json";

export interface HeadlessRun {
  prompt: string;
  /** What the user wrote, when `prompt` differs from it (files of @mentions attached). */
  typed?: string;
  /** `@picture.png` images, for a model that sees (the agent refuses the run when it does not). */
  images?: ImageAttachment[];
  /** `@server:uri` mentions: the agent reads them (after the servers start) and attaches them. */
  resources?: ResourceMention[];
  config: RunConfig;
  conversation: ConversationMessage[];
  format: OutputFormat;
  /** `--yes`: when no server answers, the engine offer is taken (installed, downloaded) and the prompt runs there. */
  yes?: boolean;
  /** Saves the run the way the TUI does (it was told of failures to save when it was made). */
  recorder: SessionRecorder;
  /** The folder of saved sessions. */
  dir: string;
  logger: Logger;
  /** An agent started earlier (startAgent); one is started here otherwise. */
  started?: StartedAgent;
}

/** What a run reported that the output needs: the usage summed, the last error, the calls refused. */
interface Tally {
  usage: { promptTokens: number; completionTokens: number };
  errorText: string;
  denied: number;
  /** The engine offer an error carried, kept to be taken (`--yes`), once. */
  offer?: EngineOffer;
  offerTaken?: boolean;
}

/**
 * `agent0 -p "prompt"`: the same agent loop as the TUI, for scripts, driven through the same
 * session host as an editor's and an MCP client's sessions (cli/hosted-session.ts). The final
 * answer goes to stdout; errors and notices to stderr. Exit code 0 only when the run completed.
 */
export async function runHeadless(opts: HeadlessRun): Promise<number> {
  const { format } = opts;
  const typed = opts.typed ?? opts.prompt;
  const resources = opts.resources ?? [];
  const tally: Tally = { usage: { promptTokens: 0, completionTokens: 0 }, errorText: "", denied: 0 };
  // `agent0 -p … | head -1`: once the reader is gone nothing more is written, the run is stopped
  // (no one sees what it would do) and it ends as a closed pipe ends a Unix tool, its session saved.
  const reader = { gone: false };
  const out = (text: string): void => {
    if (!reader.gone) process.stdout.write(text);
  };
  const started = opts.started ?? startAgent();
  const session: HostedSession = new HostedSession({
    config: opts.config,
    dir: opts.dir,
    logger: opts.logger,
    recorder: opts.recorder,
    conversation: opts.conversation,
    openAgent: (onEvent) => {
      started.listen(onEvent);
      return started.agent;
    },
    // Events of no run (MCP servers starting) are reported as a run's are.
    onIdleEvent: (e) => report(e, session, tally, opts, out),
  });
  // Claude Code's stream-json opens with this line: a script learns the session it can resume
  // (--resume <id>), the model and the folder before the first event.
  if (format === "stream-json") {
    const { model, cwd, permissionMode } = session.config;
    out(
      safeJson({
        type: "system",
        subtype: "init",
        session_id: session.id,
        model,
        cwd,
        permission_mode: permissionMode,
      }) + "\n",
    );
  }
  process.stdout.on("error", (err: NodeJS.ErrnoException) => {
    if (reader.gone) return;
    reader.gone = true;
    if (err.code !== "EPIPE") process.stderr.write(sanitize(`error: cannot write the answer: ${err.message}\n`));
    session.cancel();
  });
  let finished = await turn(opts, session, typed, resources, tally, out);
  if (tally.offer && finished.reason === "error") finished = await takeOffer(tally.offer, opts, session, tally, out);
  try {
    return await finish(finished, session, tally, opts, reader, out);
  } catch (err) {
    // What could not be written or closed still ends the process, with exit code 1.
    process.stderr.write(sanitize(`error: ${(err as Error).message}\n`));
    return 1;
  }
}

/** The prompt's one turn: its `@server:uri` resources read first (nothing is sent without them). */
async function turn(
  opts: HeadlessRun,
  session: HostedSession,
  typed: string,
  resources: ResourceMention[],
  tally: Tally,
  out: (text: string) => void,
): Promise<{ reason: DoneReason; answer: string }> {
  let content = opts.prompt;
  let images = opts.images;
  if (resources.length > 0) {
    const expanded = await session.expandMcp({ typed, text: opts.prompt, resources, images });
    if (!expanded.ok) {
      tally.errorText = `could not read ${resources.map((r) => `@${r.server}:${r.uri}`).join(", ")}: ${expanded.error}`;
      process.stderr.write(sanitize(`error: ${tally.errorText}\n`));
      return { reason: "error", answer: "" };
    }
    ({ content, images } = expanded);
  }
  const user = userMessage({ content, typed, images }, session.config.seesImages, Date.now());
  return session.prompt(user, (e) => report(e, session, tally, opts, out), true);
}

/**
 * `--yes` and no server: the engine and the model come now (progress on stderr), and the turn that
 * found no server runs again in the engine.
 */
async function takeOffer(
  offer: EngineOffer,
  opts: HeadlessRun,
  session: HostedSession,
  tally: Tally,
  out: (text: string) => void,
): Promise<{ reason: DoneReason; answer: string }> {
  tally.offer = undefined;
  tally.offerTaken = true;
  tally.errorText = "";
  const line = stderrProgress();
  for (const l of offerLines(offer)) line(l);
  const { acceptOffer } = await import("./engine-setup.js");
  const taken = await acceptOffer(offer, {
    dataDir: session.config.dataDir,
    env: process.env,
    signal: new AbortController().signal,
    onLine: line,
  });
  if (!taken.ok) {
    tally.errorText = taken.message;
    process.stderr.write(sanitize(`error: ${taken.message}\n`));
    return { reason: "error", answer: "" };
  }
  session.configure({ model: offer.model, provider: "embedded" });
  return session.retry((e) => report(e, session, tally, opts, out), true);
}

/**
 * Lines on stderr: a progress bar rewrites its own line on a terminal; where stderr is a file or a
 * pipe, only each tenth of the way is kept (a log is not a flood of bars).
 */
function stderrProgress(): (line: string) => void {
  const tty = process.stderr.isTTY === true;
  let tenth = -1;
  let open = false;
  return (line) => {
    const bar = /\[([█░]+)\]/.exec(line)?.[1];
    if (bar && tty) {
      open = true;
      return void process.stderr.write(`\r${sanitize(line)}\x1b[K`);
    }
    if (bar) {
      const t = Math.floor(((bar.split("█").length - 1) / bar.length) * 10);
      if (t === tenth) return;
      tenth = t;
    }
    process.stderr.write(`${open ? "\n" : ""}${sanitize(line)}\n`);
    open = false;
  };
}

/** One event on stdout (stream-json) or stderr, as a script reads it. */
function report(e: AgentEvent, session: HostedSession, tally: Tally, opts: HeadlessRun, out: (text: string) => void) {
  const { format } = opts;
  if (format === "stream-json") out(safeJson(e) + "\n");
  switch (e.type) {
    case "usage":
      tally.usage.promptTokens += e.promptTokens;
      tally.usage.completionTokens += e.completionTokens;
      break;
    case "error":
      tally.errorText = e.hint ? `${e.message}\n${e.hint}` : e.message;
      // `--yes`: no server is no error yet — the offer is taken once the turn is over.
      if (e.offer && opts.yes && !tally.offerTaken) {
        tally.offer = e.offer;
        if (format !== "stream-json") process.stderr.write(sanitize(`${e.message}\n`));
        break;
      }
      if (format !== "stream-json") process.stderr.write(sanitize(`error: ${tally.errorText}\n`));
      if (e.offer && format !== "stream-json") process.stderr.write(sanitize(offerAdvice(e.offer)));
      break;
    case "notice":
      if (format !== "stream-json" && e.level !== "info") process.stderr.write(sanitize(`${e.level}: ${e.text}\n`));
      break;
    case "denied":
      // The run did not do what was asked: say what was refused, and exit non-zero.
      tally.denied++;
      process.stderr.write(sanitize(`denied: ${e.tool}${e.why ? ` (${e.why})` : ""}: ${e.preview}\n`));
      break;
    case "prompt-blocked":
      tally.errorText =
        e.source === "hook"
          ? `a UserPromptSubmit hook blocked the prompt: ${e.reason}`
          : `${e.reason} Nothing was sent: shorten the prompt, or use a model with a larger context window.`;
      process.stderr.write(sanitize(`error: ${tally.errorText}\n`));
      break;
    case "permission-request":
      // Headless runs are not interactive: the loop denies before asking. Never hang.
      session.answer(e.id, "deny");
      break;
    default:
      break;
  }
}

/** The run is over: the answer out, the session closed, the exit code. */
async function finish(
  { reason, answer }: { reason: DoneReason; answer: string },
  session: HostedSession,
  tally: Tally,
  opts: HeadlessRun,
  reader: { gone: boolean },
  out: (text: string) => void,
): Promise<number> {
  // A run stopped as stuck ends on replies that could not be used (raw call markup, an empty
  // reply): they are not an answer. The reason and the notice are on stderr; exit code 1.
  if (opts.format === "text" && answer && reason !== "stuck")
    out(sanitize(answer.endsWith("\n") ? answer : answer + "\n"));
  if (opts.format === "json") {
    const result = {
      answer,
      model: session.config.model,
      usage: tally.usage,
      session_id: session.saved ? session.id : undefined,
      reason,
      ...(tally.errorText ? { error: tally.errorText } : {}),
    };
    out(safeJson(result) + "\n");
  }
  const unsaved = await session.close(true);
  if (unsaved !== undefined) process.stderr.write(sanitize(`error: ${unsaved}\n`));
  opts.logger.close();
  if (reader.gone) return SIGPIPE_EXIT;
  return reason === "complete" && tally.denied === 0 && unsaved === undefined ? 0 : 1;
}

/** What `-p` says with the offer: it never downloads without `--yes`. */
function offerAdvice(offer: EngineOffer): string {
  return (
    offerLines(offer).join("\n") +
    `\n-p downloads nothing unasked: add --yes to take it and run the prompt there (agent0 -p … --yes), or run agent0 models pull ${offer.model}, then: agent0 --provider embedded --model ${offer.model}\n`
  );
}
