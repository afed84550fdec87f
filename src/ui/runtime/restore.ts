/** Mouse (button events, SGR encoding) and bracketed paste: on while we hold the terminal. */
export const MODES_ON = "\x1b[?1000h\x1b[?1006h\x1b[?2004h\x1b[?1004h";
export const MODES_OFF = "\x1b[?1000l\x1b[?1006l\x1b[?2004l\x1b[?1004l";

// Who holds the terminal (the boot screen, then blessed) registers here how to give it back, so
// crash handlers can leave the alternate screen and raw mode without loading blessed.
let restore: (() => void) | undefined;

export function setTerminalRestore(fn: (() => void) | undefined): void {
  restore = fn;
}

/** For crash handlers: leave the alternate screen and raw mode before printing anything. */
export function restoreTerminal(): void {
  const fn = restore;
  restore = undefined;
  fn?.();
}
