import { assertNever } from "../../protocol/assert-never.js";
import type { WorkerCommand } from "../../protocol/worker-command.js";
import type { ConversationMessage } from "../../protocol/conversation.js";
import type { Cmd, Msg } from "../msg.js";
import type { Services } from "./services.js";
import { createSteerRunner } from "./steer-cmds.js";
import { editText } from "./editor.js";
import { jobControlHere, stopUntilContinued } from "./job-control.js";
import { createStatusLineRunner, type StatusLineRunner } from "./status-line.js";
import { resolveAddDirs } from "../../context/add-dirs.js";

export interface CommandDeps {
  services: Services;
  /** Sends a command to the agent worker. */
  send(command: WorkerCommand): void;
  /** Hands a Msg a Cmd produced back to the loop (handled on a later turn of the event loop). */
  later(msg: Msg): void;
  quit(): void;
  /** Runs `work` while another program has the terminal (Ctrl+G's editor), then repaints. */
  withTerminal<T>(work: () => Promise<T>): Promise<T>;
  /** agent0's version, for the status line command's input. */
  version?: string;
  /** Writes to the terminal directly (the attention bell / OSC 9). */
  write?(s: string): void;
}

/**
 * The Cmd interpreter: performs each Cmd with the services and the worker, and turns its result
 * into Msgs. It reads the Cmd (a Cmd carries its payload) and, for a run, the /undo checkpoint
 * folder only main knows; it never crashes the app: a Cmd that throws, or whose promise rejects,
 * becomes an error notice.
 */
export function createCommands(deps: CommandDeps): (cmd: Cmd) => void {
  const steer = createSteerRunner(
    () => deps.services,
    deps.later,
    (s) => (deps.write ?? ((t: string) => process.stdout.write(t)))(s),
  );
  const statusLine = createStatusLineRunner(deps.later);
  const failed = (cmd: Cmd, err: unknown) =>
    deps.later({ type: "notice", level: "error", text: `${describe(cmd)} failed: ${messageOf(err)}` });
  return (cmd) => {
    let result: void | Promise<unknown>;
    try {
      result = perform(cmd, deps, steer, statusLine);
    } catch (err) {
      failed(cmd, err);
      return;
    }
    if (result) result.catch((err: unknown) => failed(cmd, err));
  };
}

/** Runs one Cmd; returns the promise of its asynchronous part, if it has one. */
function perform(
  cmd: Cmd,
  { services, send, later, quit, withTerminal, version }: CommandDeps,
  steer: ReturnType<typeof createSteerRunner>,
  statusLine: StatusLineRunner,
): void | Promise<unknown> {
  switch (cmd.type) {
    case "worker": {
      const c = cmd.command;
      // Runs and compactions save /undo checkpoints beside the session file, which only main knows;
      // hooks are told the session and its file.
      send(
        c.type === "run" || c.type === "compact" || c.type === "notification"
          ? {
              ...c,
              config: { ...c.config, ...services.runStamp() },
            }
          : c,
      );
      return;
    }
    case "session-append":
      return services.appendMessage(cmd.message);
    case "session-record":
      return services.record(cmd.event);
    case "session-reset":
      return services.resetSession(cmd.conversation);
    case "session-meta":
      return services.sessionMeta(cmd.fields);
    case "new-session":
      return later({ type: "session-opened", sessionId: services.newSession(), conversation: [] });
    case "open-session": {
      const opened = services.openSession(cmd.idOrPrefix);
      later(
        opened.ok
          ? {
              type: "session-opened",
              sessionId: opened.sessionId,
              conversation: opened.conversation,
              model: opened.model,
              tokensUsed: opened.tokensUsed,
            }
          : { type: "notice", level: "error", text: opened.error },
      );
      // Said after the transcript is rebuilt: a fork, damaged lines, an answer cut off.
      if (opened.ok) for (const text of opened.notices) later({ type: "notice", level: "warn", text });
      return;
    }
    case "list-sessions": {
      const { items, warnings } = services.listSessions();
      for (const text of warnings) later({ type: "notice", level: "warn", text });
      return later({ type: "picker-items", purpose: "session", items });
    }
    case "accept-offer":
      return services
        .acceptOffer(cmd.offer, (line) => later({ type: "offer-progress", line }))
        .then((r) => later({ type: "offer-done", ok: r.ok, message: r.message }));
    case "cancel-offer":
      return services.cancelOffer();
    case "list-models":
      return services.listModels().then((items) => later({ type: "picker-items", purpose: "model", items }));
    case "save-config":
      return later({ type: "notice", level: "info", text: services.saveConfig(cmd.keys) });
    case "show":
      return services.show(cmd.what).then((text) => later({ type: "notice", level: "info", text }));
    case "doctor":
      return services.doctor(cmd.terminal).then((text) => later({ type: "notice", level: "info", text }));
    case "undo":
      return services.undo(cmd.conversation, cmd.force).then((r) => {
        if (r.conversation) later(cutBack(cmd, r.conversation));
        later({ type: "notice", level: r.ok ? "info" : "warn", text: r.text });
      });
    case "export":
      return services
        .exportMarkdown(cmd.conversation, cmd.model, cmd.file)
        .then((text) => later({ type: "notice", level: "info", text }));
    case "session-diff":
      return services.sessionDiff().then((diffs) => later({ type: "session-diff", diffs }));
    case "review-diff":
      return services
        .reviewDiff(cmd.target)
        .then((diff) => later({ type: "review-diff", target: cmd.target, typed: cmd.typed, diff }));
    case "rewind":
      return services.rewind(cmd.conversation, cmd.request.turn, cmd.request.restore, cmd.force).then((r) => {
        if (r.conversation) later(cutBack(cmd, r.conversation));
        later({
          type: "rewound",
          request: cmd.request,
          ok: r.ok,
          text: r.text,
          ...(r.conflicts ? { conflicts: r.conflicts } : {}),
        });
      });
    case "match-files":
    case "read-mentions":
    case "shell":
    case "shell-cancel":
    case "history-append":
    case "notify":
      return steer(cmd);
    case "mcp-trust":
      return later({ type: "mcp-config", ...services.mcpTrust(cmd.decisions) });
    case "mcp-reload":
      return later({ type: "mcp-config", ...services.mcpReload() });
    case "plugin-enable":
      return services.setPluginEnabled(cmd.name, cmd.enabled).then(({ text, ...r }) => {
        later({ type: "mcp-config", ...r });
        later({ type: "notice", level: "info", text });
      });
    case "after":
      // unref: a pending hint never keeps a quitting process alive.
      setTimeout(() => later(cmd.msg), cmd.ms).unref();
      return;
    case "save-permission-rule":
    case "remove-permission-rule": {
      const r =
        cmd.type === "save-permission-rule"
          ? services.addProjectRule(cmd.rule)
          : services.removeRule(cmd.rule, cmd.file);
      later({ type: "mcp-config", mcp: r.mcp, warnings: r.warnings });
      return later({ type: "notice", level: "info", text: r.text });
    }
    case "status-line":
      return statusLine.request({
        command: cmd.command,
        cwd: cmd.input.cwd,
        input: {
          ...cmd.input,
          transcript_path: services.runStamp().transcriptPath,
          ...(version ? { version } : {}),
        },
      });
    case "add-dir": {
      let dir: string;
      try {
        [dir] = resolveAddDirs([cmd.path], cmd.cwd) as [string];
      } catch (err) {
        return later({ type: "notice", level: "warn", text: messageOf(err).replace(/^--add-dir/, "/add-dir") });
      }
      return later({ type: "dir-added", dir });
    }
    case "edit-input":
      return withTerminal(() => editText(cmd.text)).then((r) =>
        later(r.ok ? { type: "input-edited", text: r.text } : { type: "notice", level: "warn", text: r.error }),
      );
    case "suspend":
      if (jobControlHere()) return withTerminal(stopUntilContinued);
      return later({
        type: "notice",
        level: "warn",
        text: "Ctrl+Z: no shell with job control runs agent0 here, so nothing could bring it back (fg). Ctrl+D quits; the session is saved.",
      });
    case "quit":
      return quit();
    default:
      assertNever(cmd);
  }
}

function describe(cmd: Cmd): string {
  switch (cmd.type) {
    case "worker":
      return `Sending ${cmd.command.type} to the agent`;
    case "undo":
      return "Undo";
    case "list-models":
      return "Listing the models";
    case "show":
      return `Showing ${cmd.what}`;
    default:
      return `The ${cmd.type} command`;
  }
}

/** /undo or /rewind cut the conversation back; turns given up were still spent, so the token total stays. */
function cutBack(cmd: { sessionId: string; tokensUsed: number }, conversation: ConversationMessage[]): Msg {
  return { type: "session-opened", sessionId: cmd.sessionId, conversation, tokensUsed: cmd.tokensUsed };
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
