import { AgentHandle } from "./agent-handle.js";
import type { AgentEvent } from "../../protocol/agent-event.js";
import { loadMarkdown } from "../../render/markdown.js";
import type { Model } from "../model.js";
import type { Cmd, Msg } from "../msg.js";
import type { Services } from "./services.js";
import { createInputDecoder } from "../keys.js";
import { openTerminal, type Terminal } from "./terminal.js";
import { update } from "../update/index.js";
import { view } from "../view/index.js";
import { createPainter } from "./painter.js";
import { createCommands } from "./commands.js";
import { exitSummary } from "../summary.js";
import { createFrameScheduler } from "./frames.js";
import { createBenchProbes } from "./bench-probes.js";
import type { BootScreen } from "./boot-screen.js";

export interface Booted {
  services: Services;
  ready: Extract<Msg, { type: "boot-ready" }>;
  tickMs: number;
  /** Full mouse capture (config "mouse": true); else the terminal's alternate-scroll mode. */
  mouse?: boolean;
  /** agent0's version (the status line command reads it). */
  version?: string;
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
  /** The boot frame on screen, if main painted one: blessed takes it over and replays its keys. */
  bootScreen?: BootScreen;
  /** Receives a function that shows a notice in the transcript (for errors found outside a Cmd). */
  bindNotify?: (notify: (level: "info" | "warn" | "error", text: string) => void) => void;
  /** Receives a function that tells the UI whether the session is being saved. */
  bindSaveState?: (send: (state: { saved: boolean; text: string }) => void) => void;
}

/** How the app ended: what to print about the session (undefined: no session was made). */
export interface AppResult {
  sessionId: string;
  session?: { ok: boolean; text: string };
  /** What this launch did (turns, tool calls, tokens, time), printed under the resume line. */
  summary?: string;
}

/**
 * Test hook for crash drills: AGENT0_FAULT=main-throw-on:<marker> throws an uncaught error on the
 * main thread when typed input holds <marker>, as a bug would (the crash handler must restore the terminal).
 */
function crashDrill(typed: string): void {
  const fault = process.env.AGENT0_FAULT;
  if (!fault?.startsWith("main-throw-on:") || !typed.includes(fault.slice("main-throw-on:".length))) return;
  setImmediate(() => {
    throw new Error("crash drill (AGENT0_FAULT)");
  });
}

/**
 * The loop: keys are decoded and handled at once (and painted at once); agent events queue up
 * and are drained on the tick (frames.ts), with one paint per tick. Cmds are run by the
 * interpreter (commands.ts) and nowhere else.
 */
export function runApp(opts: RuntimeOptions): Promise<AppResult> {
  const now = opts.now ?? Date.now;
  let model = opts.model;
  const queue: AgentEvent[] = [];
  let dirty = true;
  let finished = false;
  // Another program (Ctrl+G's editor) has the terminal: nothing is painted until it gives it back.
  let suspended = false;
  let resolveDone!: (v: AppResult) => void;
  let rejectDone!: (err: Error) => void;
  const done = new Promise<AppResult>((resolve, reject) => {
    resolveDone = resolve;
    rejectDone = reject;
  });
  const probes = createBenchProbes();

  // Started after the first frame (below); the closures above only run once it exists.
  // eslint-disable-next-line prefer-const
  let agent!: AgentHandle;
  let services: Services | undefined;
  let exec: ((cmd: Cmd) => void) | undefined;
  const frames = createFrameScheduler({
    intervalMs: opts.tickMs,
    pending: () => model.run !== null || model.loadingModel || queue.length > 0,
    onStart: () => dispatch({ type: "tick", now: now() }),
    onTick: () => {
      drainAgentEvents();
      if (model.run || model.shell || model.loadingModel || dirty) dispatch({ type: "tick", now: now() });
      paint();
    },
  });
  // Every Cmd runs after boot, in the order it was made (callbacks on one promise keep order).
  const booted: Promise<void> = opts.boot.then(
    (b) => {
      services = b.services;
      exec = createCommands({
        services: b.services,
        send: (c) => agent.send(c),
        later,
        withTerminal,
        ...(b.version ? { version: b.version } : {}),
        quit: () => {
          quit().catch(rejectDone);
        },
      });
      dispatch(b.ready);
      paint();
      frames.setInterval(b.tickMs);
      frames.wake();
      if (b.mouse) term.captureMouse();
    },
    (err: Error) => {
      finished = true;
      frames.stop();
      term.restore();
      agent?.close().catch(() => {});
      rejectDone(err);
    },
  );
  const decode = createInputDecoder();
  const typedAtBoot = opts.bootScreen?.handOver() ?? "";
  const onKeys = (data: string) => {
    probes.key();
    // A key acts on everything that has happened: agent events still waiting for the tick go
    // first (so Ctrl-D right after an answer arrived quits with the answer saved).
    drainAgentEvents();
    // While idle the clock stands still: a run a key starts must not begin in the past.
    if (!frames.ticking()) dispatch({ type: "tick", now: now() });
    for (const msg of decode(data)) dispatch(msg);
    crashDrill(data);
    frames.wake();
    paint();
  };
  const term: Terminal = openTerminal(
    onKeys,
    () => {
      dispatch({ type: "resize", width: process.stdout.columns ?? 80, height: process.stdout.rows ?? 24 });
      paint();
    },
    { takeOver: opts.bootScreen !== undefined },
  );
  const commit = createPainter(term);

  function dispatch(msg: Msg): void {
    if (finished) return;
    const [next, cmds] = update(model, msg);
    if (next !== model) {
      dirty = true;
      opts.onUpdate?.(next);
    }
    model = next;
    for (const cmd of cmds) runCmd(cmd);
  }

  function paint(): void {
    if (finished || suspended || !dirty) return;
    dirty = false;
    const painted = probes.paint();
    commit(view(model), model);
    painted({ entries: model.entries.length, running: model.run !== null });
  }

  function runCmd(cmd: Cmd): void {
    // Before boot, Cmds wait (in order); after it they run at once, so that quitting can save
    // everything still in flight before it closes the session.
    if (exec) {
      if (!finished) exec(cmd);
      return;
    }
    // A boot that failed has ended the app (rejectDone above): the Cmd has nothing to run on.
    booted.then(
      () => {
        if (!finished) exec?.(cmd);
      },
      () => {},
    );
  }

  /** A Msg produced by a Cmd: handled on the next turn of the event loop, then painted. */
  function later(msg: Msg): void {
    setImmediate(() => {
      dispatch(msg);
      frames.wake();
      paint();
    });
  }

  /** Runs `work` with the terminal handed over, then takes it back and paints the whole screen. */
  async function withTerminal<T>(work: () => Promise<T>): Promise<T> {
    suspended = true;
    term.suspend();
    try {
      return await work();
    } finally {
      suspended = false;
      term.resume();
      if (!finished) {
        dispatch({ type: "resize", width: process.stdout.columns ?? 80, height: process.stdout.rows ?? 24 });
        dirty = true;
        paint();
      }
    }
  }

  function drainAgentEvents() {
    for (const event of queue.splice(0)) dispatch({ type: "agent", event });
  }

  opts.bindNotify?.((level, text) => later({ type: "notice", level, text }));
  opts.bindSaveState?.((state) => later({ type: "save-state", saved: state.saved, text: state.text }));

  async function quit() {
    if (finished) return;
    finished = true;
    frames.stop();
    term.restore();
    await agent.close().catch(() => {});
    const session = await services
      ?.close()
      .catch((err: Error) => ({ ok: false, text: `Session not saved: ${err.message}` }));
    const summary = model.stats.turns > 0 ? exitSummary(model.stats, now()) : undefined;
    resolveDone({ sessionId: services?.sessionId() ?? "", session, summary });
  }

  dispatch({ type: "tick", now: now() });
  dispatch({ type: "resize", width: process.stdout.columns ?? 80, height: process.stdout.rows ?? 24 });
  paint();
  probes.mark("blessed-paint");
  // The worker thread starts after the first frame: it loads the providers and tools.
  agent = new AgentHandle((e) => {
    queue.push(e);
    frames.wake();
    // Deltas are not logged one by one: the whole message is, when it is complete.
    if (e.type !== "text" && e.type !== "thinking") services?.log("event", e);
  });
  if (opts.initialPrompt) {
    // Sent like typed input: it waits in the queue until settings and skills have loaded.
    dispatch({ type: "paste", text: opts.initialPrompt });
    dispatch({ type: "key", key: { name: "enter" } });
    paint();
  }
  // Keys typed while the boot frame was up, in order, as if typed now.
  if (typedAtBoot) onKeys(typedAtBoot);
  frames.wake();
  // marked-terminal is heavy: load it after the first frame is on screen.
  loadMarkdown().then(
    () => {
      dispatch({ type: "markdown-ready" });
      dirty = true;
      paint();
    },
    // Answers stay plain text; the user is told why (a broken install).
    (err: Error) => later({ type: "notice", level: "error", text: `Markdown cannot be shown: ${err.message}` }),
  );
  return done;
}
