import { processState } from "./process-state.js";

/**
 * Alternate scroll (the wheel arrives as arrow keys, and the terminal keeps selecting text with
 * the mouse), bracketed paste, focus reporting and modifyOtherKeys level 1 (xterm, and tmux with
 * `extended-keys on`, then send Shift+Enter as CSI 27;2;13~ or CSI 13;2u; terminals without it
 * ignore the request): on while we hold the terminal. Turning off also ends a full
 * mouse capture, which is harmless when it was never on.
 */
export const MODES_ON = "\x1b[?1007h\x1b[?2004h\x1b[?1004h" + "\x1b[>4;1m";
// Ending synchronized output too: a crash between a frame's marks must not leave the terminal holding its output.
// `CSI > 4 m` gives modifyOtherKeys back its default (xterm; tmux clears its extended keys).
export const MODES_OFF = "\x1b[?1000l\x1b[?1006l\x1b[?1007l\x1b[?2004l\x1b[?1004l\x1b[?2026l\x1b[>4m";
/**
 * DECRQM for mode 2026 (synchronized output): a terminal that knows it answers with DECRPM
 * (keys.ts reads it), and frames are bracketed from then on; one that does not stays silent.
 */
export const SYNC_OUTPUT_QUERY = "\x1b[?2026$p";
/**
 * Asked once the app holds the terminal; a terminal answers those it knows (keys.ts reads the
 * answers) and ignores the rest: synchronized output (DECRQM 2026), the kitty keyboard
 * protocol's flags (CSI ? u) and the background colour (OSC 11, to pick a light or dark theme).
 */
export const TERMINAL_QUERIES = SYNC_OUTPUT_QUERY + "\x1b[?u" + "\x1b]11;?\x1b\\";
/**
 * The kitty keyboard protocol, "disambiguate escape codes" (flag 1): Shift+Enter, Ctrl+Enter and
 * Alt+Enter come as distinct CSI u keys. Pushed on the terminal's stack, popped to give it back:
 * https://sw.kovidgoyal.net/kitty/keyboard-protocol/#progressive-enhancement
 */
export const KEYBOARD_PUSH = "\x1b[>1u";
export const KEYBOARD_POP = "\x1b[<u";
/** OSC 9;4, the taskbar progress of ConEmu and Windows Terminal that Ghostty, iTerm2 and others took up. */
export type Progress = "none" | "busy" | "error";
export function progressSequence(progress: Progress): string {
  // 0 clears, 3 is indeterminate, 2 the error state (at 100 %).
  return progress === "busy" ? "\x1b]9;4;3\x1b\\" : progress === "error" ? "\x1b]9;4;2;100\x1b\\" : "\x1b]9;4;0\x1b\\";
}
export const SYNC_BEGIN = "\x1b[?2026h";
export const SYNC_END = "\x1b[?2026l";
/** Full mouse capture (button events, SGR encoding), only when the config asks ("mouse": true). */
export const MOUSE_ON = "\x1b[?1000h\x1b[?1006h";

// Who holds the terminal (the boot screen, then blessed) registers here how to give it back, so
// crash handlers can leave the alternate screen and raw mode without loading blessed.
export function setTerminalRestore(fn: (() => void) | undefined): void {
  processState().restore = fn;
}

/** For crash handlers: leave the alternate screen and raw mode before printing anything. */
export function restoreTerminal(): void {
  const fn = processState().restore;
  processState().restore = undefined;
  fn?.();
}
