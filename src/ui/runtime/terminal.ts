import { createRequire } from "node:module";
import { PassThrough } from "node:stream";
import type blessed from "blessed";
import { eastAsianWidth } from "get-east-asian-width";
import {
  KEYBOARD_POP,
  KEYBOARD_PUSH,
  MODES_OFF,
  MODES_ON,
  MOUSE_ON,
  TERMINAL_QUERIES,
  progressSequence,
  setTerminalRestore,
  type Progress,
} from "./restore.js";
import { themeSgr, type ColourTheme } from "../../render/theme.js";

/**
 * The parts of blessed we use. Its index requires all ~35 of its widgets (~25 ms, after the boot
 * screen and before the app takes keys); a screen and boxes need only these modules.
 */
const load = createRequire(import.meta.url);
export const blessedParts = {
  program: load("blessed/lib/program") as { prototype: unknown },
  tput: load("blessed/lib/tput") as { prototype: unknown },
  unicode: load("blessed/lib/unicode") as unknown,
  screen: load("blessed/lib/widgets/screen") as ((
    options: blessed.Widgets.IScreenOptions,
  ) => blessed.Widgets.Screen) & {
    prototype: unknown;
  },
  box: load("blessed/lib/widgets/box") as (options: blessed.Widgets.BoxOptions) => blessed.Widgets.BoxElement,
};

// eslint-disable-next-line no-restricted-syntax -- blessed is one per process: its patch is applied once
let patched = false;

/** blessed is unmaintained: what we need changed in it is patched here, once (exported for tests). */
export function patchBlessed(): void {
  if (patched) return;
  patched = true;
  patchLazyTerminfo();
  patchUnicodeWidth();
  patchItalicStrikethrough();
}

/**
 * blessed's cell attributes know bold, underline, blink, inverse and invisible, and drop SGR 3
 * (italic) and 9 (strikethrough). We never use blink or invisible: italic is stored as blink and
 * strikethrough as invisible, and the SGR that blessed writes is translated back on its way out.
 */
function patchItalicStrikethrough(): void {
  const screen = blessedParts.screen.prototype as BlessedScreenProto;
  const program = blessedParts.program.prototype as BlessedProgramProto;
  const attrCode = screen.attrCode;
  const inbound: Record<string, string> = { "3": "5", "23": "25", "9": "8", "29": "28" };
  screen.attrCode = function (code, cur, def) {
    const theme = (this as ThemedScreen).agent0Theme;
    if (theme && theme !== "dark") code = themeSgr(code, theme);
    const params = code.slice(2, -1);
    const mapped = inbound[params];
    return attrCode.call(this, mapped ? `\x1b[${mapped}m` : code, cur, def);
  };
  const write = program._write;
  program._write = function (text) {
    return write.call(this, text.includes("\x1b[") ? outboundSgr(text) : text);
  };
}

/** In every SGR sequence, blink (5) becomes italic (3) and invisible (8) strikethrough (9). */
export function outboundSgr(text: string): string {
  return text.replace(/\x1b\[([0-9;]*)m/g, (whole, params: string) => {
    if (!/(^|;)[58](;|$)/.test(params)) return whole;
    const p = params.split(";");
    for (let i = 0; i < p.length; i++) {
      // 38;5;n / 48;5;n and 38;2;r;g;b are colours, not attributes.
      if (p[i] === "38" || p[i] === "48") {
        i += p[i + 1] === "2" ? 4 : 2;
        continue;
      }
      if (p[i] === "5") p[i] = "3";
      else if (p[i] === "8") p[i] = "9";
    }
    return `\x1b[${p.join(";")}m`;
  });
}

/** The colour theme a screen draws in, kept on the screen itself (blessed calls attrCode on it). */
interface ThemedScreen {
  agent0Theme?: ColourTheme;
}

interface BlessedScreenProto {
  attrCode(this: unknown, code: string, cur: number, def: number): number;
}

interface BlessedProgramProto {
  _write(this: unknown, text: string): unknown;
}

/**
 * blessed's width tables predate Unicode 9: emoji count as 1 column while terminals draw 2,
 * which breaks every line they are on. Width comes from get-east-asian-width instead, and the
 * spacer blessed inserts after wide characters follows the same rule.
 */
function patchUnicodeWidth(): void {
  const unicode = blessedParts.unicode as BlessedUnicode;
  const original = unicode.charWidth;
  unicode.charWidth = (str: string | number, i?: number) => {
    const point = typeof str === "number" ? str : unicode.codePointAt(str, i ?? 0);
    if (point < 0x1100 || unicode.combining[point]) return original(point);
    return eastAsianWidth(point);
  };
  unicode.chars.all = {
    [Symbol.replace](text: string, replacement: string): string {
      // blessed calls replace(chars.all, "$1\x03"): a spacer after each wide character.
      const spacer = replacement.replace("$1", "");
      let out = "";
      for (const ch of text) {
        out += ch;
        if (ch.codePointAt(0)! >= 0x1100 && unicode.charWidth(ch, 0) === 2) out += spacer;
      }
      return out;
    },
  };
}

/**
 * blessed compiles every terminfo capability into a function when the screen is created (about
 * 500 of them, ~8 ms); we use a few dozen. Compile each on its first use instead.
 */
function patchLazyTerminfo(): void {
  type Compile = (this: unknown, info: unknown, key: string, str: unknown) => unknown;
  const tput = blessedParts.tput.prototype as { _compile: Compile };
  const compile = tput._compile;
  tput._compile = function (info, key, str) {
    if (typeof str !== "string" || !str) return compile.call(this, info, key, str);
    // The returned function is called with its own `this`; compile needs the terminfo object.
    // eslint-disable-next-line @typescript-eslint/no-this-alias
    const self = this;
    let compiled: ((...args: unknown[]) => unknown) | undefined;
    return function (this: unknown, ...args: unknown[]) {
      compiled ??= compile.call(self, info, key, str) as (...a: unknown[]) => unknown;
      return compiled.apply(this, args);
    };
  };
}

interface BlessedUnicode {
  charWidth(str: string | number, i?: number): number;
  codePointAt(str: string, i: number): number;
  combining: Record<number, boolean>;
  chars: { all: unknown };
}

/** The main screen again, the cursor shown, colours reset. */
const LEAVE_SCREEN = "\x1b[?1049l\x1b[?25h\x1b[0m";

export interface Terminal {
  screen: blessed.Widgets.Screen;
  /** Full mouse capture: wheel and clicks come to us, the terminal no longer selects text. */
  captureMouse(): void;
  /** Gives the terminal to another program (Ctrl+G's editor): main screen, cooked mode, no keys read. */
  suspend(): void;
  /** Takes it back after suspend: alternate screen, raw mode, keys; the next render draws every cell. */
  resume(): void;
  restore(): void;
  /** The kitty keyboard protocol's "disambiguate" flag on (pushed) or off (popped); given back at suspend and exit. */
  setKeyboard(kitty: boolean): void;
  /** OSC 9;4 progress in the terminal's tab or taskbar; cleared at suspend and exit. */
  setProgress(progress: Progress): void;
  /** The colour theme cells are drawn in from the next render. */
  setTheme(theme: ColourTheme): void;
}

/**
 * Every cell is written again at the next render, over what the terminal shows, without a clear
 * first: a terminal that paints as bytes come (no synchronized output) never shows an empty screen.
 */
export function redrawInPlace(screen: blessed.Widgets.Screen): void {
  const buffers = screen as unknown as { lines: { dirty: boolean }[]; olines: [number, string][][] };
  for (const row of buffers.olines) for (const cell of row) cell[0] = -1;
  for (const line of buffers.lines) line.dirty = true;
}

/**
 * blessed clears the screen when it allocates its buffers. Taking over from the boot screen
 * (boot-screen.ts), that clear would blank the frame already shown until the first render; so
 * the clear is skipped and the first render writes each cell over the boot frame in place.
 */
function createScreenOver(options: blessed.Widgets.IScreenOptions): blessed.Widgets.Screen {
  const program = blessedParts.program.prototype as { clear(): unknown };
  const clear = program.clear;
  program.clear = () => true;
  let screen: blessed.Widgets.Screen;
  try {
    screen = blessedParts.screen(options);
  } finally {
    program.clear = clear;
  }
  redrawInPlace(screen);
  return screen;
}

/**
 * A full-screen blessed screen used for output only: input is decoded by keys.ts. With
 * `takeOver`, a boot screen is showing and blessed draws over it without clearing first.
 */
export function openTerminal(
  onData: (s: string) => void,
  onResize: () => void,
  { takeOver = false }: { takeOver?: boolean } = {},
): Terminal {
  patchBlessed();
  // In a UTF-8 locale, draw lines and dots as Unicode characters, not through the terminal's
  // alternate character set: copied text then reads "─" and "·" instead of "q" and "~".
  const locale = process.env.LC_ALL || process.env.LC_CTYPE || process.env.LANG || "";
  if (/utf-?8/i.test(locale)) process.env.NCURSES_NO_UTF8_ACS ??= "1";
  const stdin = process.stdin;
  const options: blessed.Widgets.IScreenOptions = {
    smartCSR: true,
    fullUnicode: true,
    // blessed cannot parse Debian's terminfo format and falls back to 8 colours otherwise.
    terminal: "xterm-256color",
    input: new PassThrough(),
    output: process.stdout,
    autoPadding: false,
    warnings: false,
    title: "agent0",
  };
  const screen = takeOver ? createScreenOver(options) : blessedParts.screen(options);
  if (stdin.isTTY) stdin.setRawMode(true);
  stdin.setEncoding("utf8");
  stdin.on("data", onData);
  stdin.resume();
  process.stdout.write(MODES_ON + TERMINAL_QUERIES);
  process.stdout.on("resize", onResize);
  let restored = false;
  let mouse = false;
  // What we changed in the terminal beyond MODES_ON, so that exactly that is given back.
  let kitty = false;
  let progress: Progress = "none";
  /** What leaves the terminal's keyboard and progress as they were before us. */
  const giveBack = () => (kitty ? KEYBOARD_POP : "") + (progress !== "none" ? progressSequence("none") : "");
  const term: Terminal = {
    screen,
    captureMouse() {
      if (mouse || restored) return;
      mouse = true;
      process.stdout.write(MOUSE_ON);
    },
    suspend() {
      if (restored) return;
      stdin.off("data", onData);
      stdin.pause();
      if (stdin.isTTY) stdin.setRawMode(false);
      process.stdout.write(giveBack() + MODES_OFF + LEAVE_SCREEN);
    },
    resume() {
      if (restored) return;
      // 1049h gives an empty alternate screen: every cell must be drawn again.
      const again = (kitty ? KEYBOARD_PUSH : "") + (progress !== "none" ? progressSequence(progress) : "");
      process.stdout.write(`\x1b[?1049h\x1b[H\x1b[2J${MODES_ON}${mouse ? MOUSE_ON : ""}${again}`);
      screen.realloc();
      if (stdin.isTTY) stdin.setRawMode(true);
      stdin.on("data", onData);
      stdin.resume();
    },
    restore() {
      if (restored) return;
      restored = true;
      process.stdout.off("resize", onResize);
      stdin.off("data", onData);
      process.stdout.write(giveBack() + MODES_OFF);
      try {
        screen.destroy();
      } catch {
        // A half-initialised screen must not stop the terminal from being restored.
      }
      if (stdin.isTTY) stdin.setRawMode(false);
      stdin.pause();
      process.stdout.write(LEAVE_SCREEN);
    },
    setKeyboard(on) {
      if (restored || on === kitty) return;
      kitty = on;
      process.stdout.write(on ? KEYBOARD_PUSH : KEYBOARD_POP);
    },
    setProgress(next) {
      if (restored || next === progress) return;
      progress = next;
      process.stdout.write(progressSequence(next));
    },
    setTheme(theme) {
      (screen as unknown as ThemedScreen).agent0Theme = theme;
    },
  };
  setTerminalRestore(term.restore);
  return term;
}
