import { appendFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { AgentHandle } from "./agent-handle.js";
import type { AgentEvent } from "../../protocol/agent-event.js";
import { assertNever } from "../../protocol/assert-never.js";
import { loadMarkdown } from "../../render/markdown.js";
import type { Model } from "../model.js";
import type { Cmd, Msg } from "../msg.js";
import type { Services } from "./services.js";
import { createInputDecoder } from "../keys.js";
import { openTerminal, type Terminal } from "./terminal.js";
import { update } from "../update/index.js";
import { view } from "../view/index.js";
import { createPainter } from "./painter.js";

export interface Booted {
  services: Services;
  ready: Extract<Msg, { type: "boot-ready" }>;
  tickMs: number;
}

export interface RuntimeOptions {
  model: Model;
  /** Settings, session and project context, loaded while the first frame is on screen. */
  boot: Promise<Booted>;
  tickMs: number;
  now?: () => number;
  /** A first message given on the command line. */
  initialPrompt?: string;
  /** Told of every new model (main reads the live config through it). */
  onUpdate?: (model: Model) => void;
  /** Receives a function that shows a notice in the transcript (for errors found outside a Cmd). */
  bindNotify?: (notify: (level: "info" | "warn" | "error", text: string) => void) => void;
}

/**
 * The loop: keys are decoded and handled at once (and painted at once); agent events queue up
 * and are drained on the tick, with one paint per tick. Cmds are run here and nowhere else.
 */
export function runApp(opts: RuntimeOptions): Promise<{ sessionId: string; saved: boolean }> {
  const now = opts.now ?? Date.now;
  let services!: Services;
  let model = opts.model;
  const queue: AgentEvent[] = [];
  let dirty = true;
  let finished = false;
  let resolveDone!: (v: { sessionId: string; saved: boolean }) => void;
  let rejectDone!: (err: Error) => void;
  const done = new Promise<{ sessionId: string; saved: boolean }>((resolve, reject) => {
    resolveDone = resolve;
    rejectDone = reject;
  });

  // Started after the first frame (below); the closures above only run once it exists.
  // eslint-disable-next-line prefer-const
  let agent!: AgentHandle;
  let tick: NodeJS.Timeout | undefined;
  let isBooted = false;
  // Every Cmd runs after boot, in the order it was made (callbacks on one promise keep order).
  const booted: Promise<void> = opts.boot.then(
    (b) => {
      services = b.services;
      dispatch(b.ready);
      isBooted = true;
      paint();
      startTick(b.tickMs);
    },
    (err: Error) => {
      finished = true;
      if (tick) clearInterval(tick);
      term.restore();
      void agent?.close().catch(() => {});
      rejectDone(err);
    },
  );
  const decode = createInputDecoder();
  // `npm run bench` reads paint timings from here (ms since process start, and durations).
  const benchFile = process.env.AGENT0_BENCH_FILE;
  const mark = (event: string, data: Record<string, number | string> = {}) => {
    if (benchFile) appendFileSync(benchFile, JSON.stringify({ event, at: performance.now(), ...data }) + "\n");
  };
  let keyAt: number | undefined;
  const term: Terminal = openTerminal(
    (data) => {
      keyAt = performance.now();
      // A key acts on everything that has happened: agent events still waiting for the tick go
      // first (so Ctrl-D right after an answer arrived quits with the answer saved).
      drainAgentEvents();
      // While idle the clock stands still: a run a key starts must not begin in the past.
      if (!tick) dispatch({ type: "tick", now: now() });
      for (const msg of decode(data)) dispatch(msg);
      wake();
      paint();
    },
    () => {
      dispatch({ type: "resize", width: process.stdout.columns ?? 80, height: process.stdout.rows ?? 24 });
      paint();
    },
  );
  const commit = createPainter(term.screen);

  function dispatch(msg: Msg): void {
    if (finished) return;
    const [next, cmds] = update(model, msg);
    if (next.run) sawRun = true;
    if (next !== model) {
      dirty = true;
      opts.onUpdate?.(next);
    }
    model = next;
    for (const cmd of cmds) runCmd(cmd);
  }

  let painted = 0;
  function paint(): void {
    if (finished || !dirty) return;
    dirty = false;
    const started = performance.now();
    commit(view(model), model);
    if (benchFile) {
      const end = performance.now();
      if (painted++ === 0) mark("first-paint");
      mark("paint", { ms: end - started, entries: model.entries.length, running: model.run ? 1 : 0 });
      if (keyAt !== undefined) mark("key-to-paint", { ms: end - keyAt, running: model.run ? 1 : 0 });
      keyAt = undefined;
      if (!model.run && sawRun) {
        sawRun = false;
        mark("run-painted");
      }
    }
  }
  let sawRun = false;

  function runCmd(cmd: Cmd): void {
    // Before boot, Cmds wait (in order); after it they run at once, so that quitting can save
    // everything still in flight before it closes the session.
    if (isBooted) {
      if (!finished) execCmd(cmd);
      return;
    }
    void booted.then(() => {
      if (!finished) execCmd(cmd);
    });
  }

  function execCmd(cmd: Cmd): void {
    switch (cmd.type) {
      case "worker": {
        const c = cmd.command;
        // Runs and compactions save /undo checkpoints beside the session file, which only main knows.
        const withCheckpoints =
          c.type === "run" || c.type === "compact"
            ? { ...c, config: { ...c.config, checkpointDir: services.checkpointDir() } }
            : c;
        agent.send(withCheckpoints);
        break;
      }
      case "session-append":
        services.appendMessage(cmd.message);
        break;
      case "session-reset":
        services.resetSession(cmd.conversation);
        break;
      case "session-meta":
        services.sessionMeta(cmd.fields);
        break;
      case "new-session": {
        const id = services.newSession();
        later({ type: "session-opened", sessionId: id, conversation: [] });
        break;
      }
      case "open-session": {
        const opened = services.openSession(cmd.idOrPrefix);
        later(
          opened.ok
            ? {
                type: "session-opened",
                sessionId: opened.sessionId,
                conversation: opened.conversation,
                model: opened.model,
              }
            : { type: "notice", level: "error", text: opened.error },
        );
        break;
      }
      case "list-sessions": {
        const { items, warnings } = services.listSessions();
        for (const text of warnings) later({ type: "notice", level: "warn", text });
        later({ type: "picker-items", purpose: "session", items });
        break;
      }
      case "list-models":
        services.listModels().then(
          (items) => later({ type: "picker-items", purpose: "model", items }),
          (err: Error) => later({ type: "notice", level: "error", text: err.message }),
        );
        break;
      case "save-config":
        later({ type: "notice", level: "info", text: services.saveConfig(cmd.keys) });
        break;
      case "show":
        services.show(cmd.what).then(
          (text) => later({ type: "notice", level: "info", text }),
          (err: Error) => later({ type: "notice", level: "error", text: err.message }),
        );
        break;
      case "undo":
        services.undo(cmd.conversation, cmd.force).then(
          (r) => {
            if (r.conversation)
              later({ type: "session-opened", sessionId: cmd.sessionId, conversation: r.conversation });
            later({ type: "notice", level: r.ok ? "info" : "warn", text: r.text });
          },
          (err: Error) => later({ type: "notice", level: "error", text: `Could not undo: ${err.message}` }),
        );
        break;
      case "quit":
        void quit();
        break;
      default:
        assertNever(cmd);
    }
  }

  /** A Msg produced by a Cmd: handled on the next turn of the event loop, then painted. */
  function later(msg: Msg): void {
    setImmediate(() => {
      dispatch(msg);
      wake();
      paint();
    });
  }

  function drainAgentEvents() {
    for (const event of queue.splice(0)) dispatch({ type: "agent", event });
  }

  // The tick runs only while something is pending (a run, a model load, queued agent events):
  // an idle TUI sets no timer at all, so it costs no CPU and no wake-ups.
  let tickMs = opts.tickMs;
  const pending = () => model.run !== undefined || model.loadingModel || queue.length > 0;
  function onTick() {
    drainAgentEvents();
    if (model.run || model.loadingModel || dirty) dispatch({ type: "tick", now: now() });
    paint();
    if (!pending() && tick) {
      clearInterval(tick);
      tick = undefined;
    }
  }
  function startTick(ms: number) {
    tickMs = ms;
    if (tick) clearInterval(tick);
    tick = undefined;
    wake();
  }
  /** Starts the tick if something is pending; the clock jumps to now first (it stood still). */
  function wake() {
    if (tick || finished || !pending()) return;
    dispatch({ type: "tick", now: now() });
    tick = setInterval(onTick, tickMs);
  }
  opts.bindNotify?.((level, text) => later({ type: "notice", level, text }));

  async function quit() {
    if (finished) return;
    finished = true;
    if (tick) clearInterval(tick);
    term.restore();
    await agent.close().catch(() => {});
    await services.close().catch(() => {});
    resolveDone({ sessionId: services.sessionId(), saved: services.saved() });
  }

  dispatch({ type: "tick", now: now() });
  dispatch({ type: "resize", width: process.stdout.columns ?? 80, height: process.stdout.rows ?? 24 });
  paint();
  // The worker thread starts after the first frame: it loads the providers and tools.
  agent = new AgentHandle((e) => {
    queue.push(e);
    wake();
    services?.log("event", e);
  });
  if (opts.initialPrompt) {
    // Sent like typed input: it waits in the queue until settings and skills have loaded.
    dispatch({ type: "paste", text: opts.initialPrompt });
    dispatch({ type: "key", key: { name: "enter" } });
    paint();
  }
  wake();
  // marked-terminal is heavy: load it after the first frame is on screen.
  void loadMarkdown().then(() => {
    dispatch({ type: "markdown-ready" });
    dirty = true;
    paint();
  });
  return done;
}
