import { processState } from "./process-state.js";

/**
 * Alternate scroll (the wheel arrives as arrow keys, and the terminal keeps selecting text with
 * the mouse), bracketed paste and focus reporting: on while we hold the terminal. Turning off also ends a full
 * mouse capture, which is harmless when it was never on.
 */
export const MODES_ON = "\x1b[?1007h\x1b[?2004h\x1b[?1004h";
// Ending synchronized output too: a crash between a frame's marks must not leave the terminal holding its output.
export const MODES_OFF = "\x1b[?1000l\x1b[?1006l\x1b[?1007l\x1b[?2004l\x1b[?1004l\x1b[?2026l";
/**
 * DECRQM for mode 2026 (synchronized output): a terminal that knows it answers with DECRPM
 * (keys.ts reads it), and frames are bracketed from then on; one that does not stays silent.
 */
export const SYNC_OUTPUT_QUERY = "\x1b[?2026$p";
export const SYNC_BEGIN = "\x1b[?2026h";
export const SYNC_END = "\x1b[?2026l";
/** Full mouse capture (button events, SGR encoding), only when the config asks ("mouse": true). */
export const MOUSE_ON = "\x1b[?1000h\x1b[?1006h";

// Who holds the terminal (the boot screen, then blessed) registers here how to give it back, so
// crash handlers can leave the alternate screen and raw mode without loading blessed.
export function setTerminalRestore(fn: (() => void) | undefined): void {
  processState.restore = fn;
}

/** For crash handlers: leave the alternate screen and raw mode before printing anything. */
export function restoreTerminal(): void {
  const fn = processState.restore;
  processState.restore = undefined;
  fn?.();
}
