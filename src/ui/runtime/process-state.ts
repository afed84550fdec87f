import type { Frame } from "../view/index.js";
import type { Model } from "../model.js";
import type { SessionRead } from "../../session/load.js";

/** The first frame, drawn with plain ANSI before blessed and the rest of the app load. */
export interface BootScreen {
  /** Draws from `render` from now on; repaints only if the frame changed (no flicker when not). */
  rerender(render: (width: number, height: number) => Frame): void;
  /** Stops drawing and listening; returns the keys typed meanwhile, in order, for the app to replay. */
  handOver(): string;
}

/**
 * State that belongs to the process, not to one copy of a module. The first frame's bundle
 * (dist/bundle/boot.js) is one file with copies of its own of boot-screen.ts, restore.ts and
 * bench-probes.ts, because one file loads in half the time of the ~20 chunks it shares with
 * main; what those copies set, main's must see. So it is handed over explicitly: bin/agent0.js
 * takes it from boot's copy (start/boot.ts `handOver`) and gives it to main's (start/main.ts
 * `start`), which adopts it; from then on both copies hold the one value.
 */
export interface ProcessState {
  /** The boot screen painted before main loaded, until main takes it over. */
  bootScreen?: BootScreen;
  /** How to give the terminal back (the boot screen's, then blessed's). */
  restore?: () => void;
  /** "first-paint" is marked once per process. */
  firstPainted?: boolean;
  /**
   * The boot frame's Model, and the session file it read (a resumed launch), until main takes
   * them: main's model takes its transcript, and the resume its file, instead of doing it again.
   */
  earlyBoot?: EarlyBoot;
}

export interface EarlyBoot {
  model: Model;
  read?: SessionRead;
}

/** This copy's state: its own until main adopts the one boot handed over. */
const holder: { state: ProcessState } = { state: {} };

export function processState(): ProcessState {
  return holder.state;
}

/** main's copy takes the state boot's copy built (the same value, not a copy of it). */
export function adoptProcessState(state: ProcessState): void {
  holder.state = state;
}
