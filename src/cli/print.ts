import { startAgent, type StartedAgent } from "./agent-start.js";
import { SIGPIPE_EXIT } from "./app-process.js";
import type { AgentEvent, DoneReason } from "../protocol/agent-event.js";
import type { ConversationMessage, ImageAttachment } from "../protocol/conversation.js";
import type { ResourceMention } from "../context/mention-parse.js";
import { turnMessages } from "../protocol/mode-notes.js";
import { userMessage } from "../protocol/user-message.js";
import type { RunConfig } from "../protocol/run-config.js";
import type { Logger } from "../session/log.js";
import type { SessionRecorder } from "../session/recorder.js";
import { safeJson, sanitize } from "../render/sanitize.js";

export type OutputFormat = "text" | "json" | "stream-json";

/**
 * `agent0 -p "prompt"`: the same agent loop as the TUI, for scripts. The final answer goes
 * to stdout; errors and notices to stderr. Exit code 0 only when the run completed.
 */
export function runHeadless(opts: {
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
  /** Saves the run the way the TUI does (it was told of failures to save when it was made). */
  recorder: SessionRecorder;
  logger: Logger;
  /** An agent started earlier (startAgent); one is started here otherwise. */
  started?: StartedAgent;
}): Promise<number> {
  const { config, format, recorder, logger } = opts;
  const typed = opts.typed ?? opts.prompt;
  const resources = opts.resources ?? [];
  let answer = "";
  let errorText = "";
  let denied = 0;
  const usage = { promptTokens: 0, completionTokens: 0 };
  const hasMcp = config.mcpServers !== undefined && Object.keys(config.mcpServers).length > 0;
  // Claude Code's stream-json opens with this line: a script learns the session it can resume
  // (--resume <id>), the model and the folder before the first event.
  // `agent0 -p … | head -1`: once the reader is gone nothing more is written, the run is stopped
  // (no one sees what it would do) and it ends as a closed pipe ends a Unix tool, its session saved.
  const reader = { gone: false };
  const out = (text: string): void => {
    if (!reader.gone) process.stdout.write(text);
  };
  if (format === "stream-json") {
    const init = { type: "system", subtype: "init", session_id: recorder.id, model: config.model, cwd: config.cwd };
    out(safeJson({ ...init, permission_mode: config.permissionMode }) + "\n");
  }
  return new Promise((resolve) => {
    const { agent, listen } = opts.started ?? startAgent();
    process.stdout.on("error", (err: NodeJS.ErrnoException) => {
      if (reader.gone) return;
      reader.gone = true;
      if (err.code !== "EPIPE") process.stderr.write(sanitize(`error: cannot write the answer: ${err.message}\n`));
      agent.send({ type: "cancel", runId: 1 });
    });
    listen((e: AgentEvent) => {
      // Deltas are not logged one by one: the whole message is, when it is complete.
      if (e.type !== "text" && e.type !== "thinking") logger.event(e);
      recorder.event(e);
      if (format === "stream-json") out(safeJson(e) + "\n");
      switch (e.type) {
        case "message":
          if (e.message.role === "assistant" && e.message.content.trim() && !e.message.toolCalls?.length)
            answer = e.message.content;
          break;
        case "model-info":
          config.model = e.model;
          break;
        case "usage":
          usage.promptTokens += e.promptTokens;
          usage.completionTokens += e.completionTokens;
          break;
        case "error":
          errorText = e.hint ? `${e.message}\n${e.hint}` : e.message;
          if (format !== "stream-json") process.stderr.write(sanitize(`error: ${errorText}\n`));
          break;
        case "notice":
          if (format !== "stream-json" && e.level !== "info") process.stderr.write(sanitize(`${e.level}: ${e.text}\n`));
          break;
        case "denied":
          // The run did not do what was asked: say what was refused, and exit non-zero.
          denied++;
          process.stderr.write(sanitize(`denied: ${e.tool}${e.why ? ` (${e.why})` : ""}: ${e.preview}\n`));
          break;
        case "prompt-blocked":
          errorText =
            e.source === "hook"
              ? `a UserPromptSubmit hook blocked the prompt: ${e.reason}`
              : `${e.reason} Nothing was sent: shorten the prompt, or use a model with a larger context window.`;
          process.stderr.write(sanitize(`error: ${errorText}\n`));
          break;
        case "permission-request":
          // Headless runs are not interactive: the loop denies before asking. Never hang.
          if (e.runId !== null) agent.send({ type: "permission-reply", runId: e.runId, id: e.id, decision: "deny" });
          break;
        case "mcp-expanded":
          startRun(e.content, e.images);
          break;
        case "mcp-expand-failed":
          // The prompt names a resource that could not be read: nothing is sent without it.
          errorText = `could not read ${resources.map((r) => `@${r.server}:${r.uri}`).join(", ")}: ${e.error}`;
          process.stderr.write(sanitize(`error: ${errorText}\n`));
          end("error");
          break;
        case "done":
          end(e.reason);
          break;
        default:
          break;
      }
    });
    /** The run is over: what could not be written or closed still ends the process, with exit code 1. */
    function end(reason: DoneReason): void {
      finish(reason).catch((err: Error) => {
        process.stderr.write(sanitize(`error: ${err.message}\n`));
        resolve(1);
      });
    }
    async function finish(reason: DoneReason) {
      // A run stopped as stuck ends on replies that could not be used (raw call markup, an empty
      // reply): they are not an answer. The reason and the notice are on stderr; exit code 1.
      if (format === "text" && answer && reason !== "stuck") {
        out(sanitize(answer.endsWith("\n") ? answer : answer + "\n"));
      }
      if (format === "json") {
        const result = {
          answer,
          model: config.model,
          usage,
          session_id: recorder.started ? recorder.id : undefined,
          reason,
          ...(errorText ? { error: errorText } : {}),
        };
        out(safeJson(result) + "\n");
      }
      // MCP servers are stopped by the agent, which is waited for then. Without them nothing is
      // left to stop (the process exits next).
      if (hasMcp || config.hooks?.SessionEnd?.length) await agent.close().catch(() => {});
      const saved = recorder.close();
      if (saved.kind === "unsaved") process.stderr.write(sanitize(`error: ${saved.text}\n`));
      logger.close();
      if (reader.gone) return resolve(SIGPIPE_EXIT);
      resolve(reason === "complete" && denied === 0 && saved.kind !== "unsaved" ? 0 : 1);
    }
    function startRun(content: string, images?: ImageAttachment[]) {
      const user = userMessage({ content, typed, images }, config.seesImages, Date.now());
      const turn = turnMessages(opts.conversation, config.permissionMode, user);
      for (const m of turn) recorder.append(m);
      Object.assign(config, recorder.runStamp());
      agent.send({ type: "run", runId: 1, conversation: [...opts.conversation, ...turn], config, last: true });
    }
    // The servers start first; the run waits for them (the agent keeps the order).
    if (hasMcp && config.mcpServers) {
      agent.send({ type: "mcp-sync", servers: config.mcpServers, cwd: config.cwd });
    }
    if (resources.length > 0) {
      agent.send({ type: "mcp-expand", request: { typed, text: opts.prompt, resources, images: opts.images } });
    } else {
      startRun(opts.prompt, opts.images);
    }
  });
}
