// The first frame, before the app loads. For a TUI launch bin/agent0.js imports this module
// before main: it paints the boot frame with plain ANSI from flags and environment alone (about
// 25 ms of code, where main, commander and blessed take ~100 ms more), buffers the keys typed
// meanwhile, and main takes the same screen over when it has loaded (showBootScreen).
import { resolveConfig, type CliOptions } from "../cli/config.js";
import type { Launch } from "./options.js";
import type { Model } from "../ui/model.js";
import { init, screenSize } from "../ui/update/init.js";
import { view, type Frame } from "../ui/view/index.js";
import { paintBootScreen, takeBootScreen, type BootScreen } from "../ui/runtime/boot-screen.js";
import { markBench } from "../ui/runtime/bench-probes.js";
import { processState, type EarlyBoot, type ProcessState } from "../ui/runtime/process-state.js";
import type { PeekFlags, peekSession } from "../session/peek.js";
import { sessionsDir } from "../context/dirs.js";

/** session/peek.ts, loaded by the caller only for a resumed launch (it brings zod). */
export type Peek = typeof peekSession;

/** The launch goes on with a saved session. */
export const resumes = (flags: PeekFlags): boolean => Boolean(flags.resume ?? flags.session ?? flags.continue);

export { restoreTerminal } from "../ui/runtime/restore.js";

/**
 * The boot frame's model: flags and environment only (the config file loads behind it), and the
 * conversation a `--resume` or `--continue` goes on with, so its first frame is its last screen.
 * `peek` reads that session (undefined: none is shown); `early`, what bin's boot frame built
 * (main's call): its session file and transcript are taken again if still current. Returns the
 * session file as read, for the resume. Throws on a bad flag.
 */
export function bootModel(flags: CliOptions & PeekFlags, peek?: Peek, early?: EarlyBoot): EarlyBoot {
  const config = resolveConfig(flags, {}, { interactive: true });
  const resumed = peek?.(flags, sessionsDir(), config.cwd, early?.read);
  // As main does: the session's model unless --model names one.
  if (resumed?.model && !flags.model) config.model = resumed.model;
  const model = init({
    width: process.stdout.columns ?? 80,
    height: process.stdout.rows ?? 24,
    now: Date.now(),
    config,
    sessionId: "",
    booted: false,
    ...(resumed ? { conversation: resumed.conversation } : {}),
    ...(early ? { builtFrom: early.model } : {}),
  });
  return resumed ? { model, read: resumed.read } : { model };
}

/**
 * For bin/agent0.js: what this copy of the first frame's modules hold for the process (the boot
 * screen, how to give the terminal back, the first-paint mark, the boot frame's model), handed to
 * main's copy (start/main.ts `start`) as a value.
 */
export function handOver(): ProcessState {
  return processState();
}

/** What bin's boot frame built, for main (once). */
export function takeEarlyBoot(): EarlyBoot | undefined {
  const early = processState().earlyBoot;
  processState().earlyBoot = undefined;
  return early;
}

// Not update's resize: the rest of update (and its ~100 KB) loads after the first frame.
const renderOf =
  (model: Model) =>
  (width: number, height: number): Frame =>
    view({ ...model, ...screenSize(width, height) });

/**
 * For bin/agent0.js: paints the boot frame now when the command line opens the TUI in a terminal.
 * `loadPeek`: session/peek.ts in the build bin runs (its own file: zod stays out of this one).
 */
export async function paintEarly(launch: Launch, loadPeek?: () => Promise<{ peekSession: Peek }>): Promise<void> {
  if (launch.kind !== "tui" || !process.stdin.isTTY || !process.stdout.isTTY) return;
  const flags = launch.flags as CliOptions & PeekFlags;
  const peek = resumes(flags) && loadPeek ? (await loadPeek().catch(() => undefined))?.peekSession : undefined;
  let early;
  try {
    early = bootModel(flags, peek);
  } catch {
    return; // main reports the bad flag, on the normal screen
  }
  processState().earlyBoot = early;
  paintBootScreen(renderOf(early.model));
  markBench("first-paint");
  await holdForTest(process.env.AGENT0_TEST_HOLD_BOOT_SCREEN);
}

/**
 * main's boot frame: the one painted early, redrawn from commander's reading of the command line
 * (the same cells unless the two readings differ), or one painted now.
 */
export async function showBootScreen(model: Model): Promise<BootScreen> {
  const early = takeBootScreen();
  if (early) {
    early.rerender(renderOf(model));
    return early;
  }
  const screen = paintBootScreen(renderOf(model));
  markBench("first-paint");
  await holdForTest(process.env.AGENT0_TEST_HOLD_BOOT_SCREEN);
  return screen;
}

/** Test hook: the boot frame stays (nothing more loads) while this file exists, so tests can resize and type. */
async function holdForTest(file: string | undefined): Promise<void> {
  if (!file) return;
  const { existsSync } = await import("node:fs");
  while (existsSync(file)) await new Promise((r) => setTimeout(r, 20));
}
