import type { Frame } from "../view/index.js";
import { MODES_OFF, MODES_ON, setTerminalRestore } from "./restore.js";
import { processState, type BootScreen } from "./process-state.js";

export type { BootScreen };

/** The boot screen already on the terminal, if any; main takes it over once. */
export function takeBootScreen(): BootScreen | undefined {
  const screen = processState().bootScreen;
  processState().bootScreen = undefined;
  return screen;
}

// The alternate screen, and the window title blessed sets (terminal.ts): from the first frame on.
const ENTER = "\x1b[?1049h\x1b[H\x1b]0;agent0\x07";
const LEAVE = "\x1b[?1049l\x1b[?25h\x1b[0m";

/** A Frame as the painter lays it out (painter.ts), as one string of plain ANSI. */
export function frameToAnsi(frame: Frame, height: number): string {
  const inputTop = height - frame.input.length;
  const transcriptRows = Math.max(1, inputTop - 2);
  const rows: string[] = Array.from({ length: height }, () => "");
  const pad = Math.max(0, transcriptRows - frame.transcript.length);
  frame.transcript.slice(0, transcriptRows).forEach((line, i) => (rows[pad + i] = line));
  rows[inputTop - 2] = frame.status;
  rows[inputTop - 1] = frame.rule;
  frame.input.forEach((line, i) => (rows[inputTop + i] = line));
  let out = "\x1b[?25l";
  rows.forEach((line, y) => (out += `\x1b[${y + 1};1H${line}\x1b[0m\x1b[K`));
  return out + `\x1b[${frame.cursor.row + 1};${frame.cursor.col + 1}H\x1b[?25h`;
}

/**
 * Puts the terminal in raw mode, enters the alternate screen and paints `render`'s frame at
 * once; repaints it on resize; buffers every key until handOver(). Blessed then takes over the
 * same screen (terminal.ts) without clearing it, so nothing flickers.
 */
export function paintBootScreen(render: (width: number, height: number) => Frame): BootScreen {
  const { stdin, stdout } = process;
  const keys: string[] = [];
  const onData = (data: string) => keys.push(data);
  let last = "";
  const paint = () => {
    const width = stdout.columns ?? 80;
    const height = stdout.rows ?? 24;
    const ansi = frameToAnsi(render(width, height), height);
    if (ansi !== last) stdout.write(ansi);
    last = ansi;
  };
  const stop = () => {
    stdin.off("data", onData);
    stdout.off("resize", paint);
  };
  if (stdin.isTTY) stdin.setRawMode(true);
  stdin.setEncoding("utf8");
  stdin.on("data", onData);
  stdin.resume();
  stdout.on("resize", paint);
  // The same modes as blessed's screen (terminal.ts): a paste or a click meanwhile reads the same.
  stdout.write(ENTER + MODES_ON);
  paint();
  setTerminalRestore(() => {
    stop();
    if (stdin.isTTY) stdin.setRawMode(false);
    stdin.pause();
    stdout.write(MODES_OFF + LEAVE);
  });
  const screen: BootScreen = {
    rerender(next) {
      render = next;
      paint();
    },
    handOver() {
      if (processState().bootScreen === screen) processState().bootScreen = undefined;
      stop();
      setTerminalRestore(undefined);
      return keys.join("");
    },
  };
  // The screen bin/agent0.js painted before main loaded (boot.ts), until main takes it.
  processState().bootScreen = screen;
  return screen;
}
