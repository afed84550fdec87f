import type { Key, Msg } from "./msg.js";

/** Escape sequences of the keys we bind, as xterm-compatible terminals send them. */
const SEQUENCES: Record<string, Key> = {
  "\x1b[A": { name: "up" },
  "\x1b[B": { name: "down" },
  "\x1b[C": { name: "right" },
  "\x1b[D": { name: "left" },
  "\x1bOA": { name: "up" },
  "\x1bOB": { name: "down" },
  "\x1bOC": { name: "right" },
  "\x1bOD": { name: "left" },
  "\x1b[H": { name: "home" },
  "\x1b[F": { name: "end" },
  "\x1bOH": { name: "home" },
  "\x1bOF": { name: "end" },
  "\x1b[1~": { name: "home" },
  "\x1b[4~": { name: "end" },
  "\x1b[7~": { name: "home" },
  "\x1b[8~": { name: "end" },
  "\x1b[2~": { name: "insert" },
  "\x1b[3~": { name: "delete" },
  "\x1b[5~": { name: "pageup" },
  "\x1b[6~": { name: "pagedown" },
  "\x1b[Z": { name: "tab", shift: true },
  "\x1b[1;3A": { name: "up", meta: true },
  "\x1b[1;3B": { name: "down", meta: true },
  "\x1b[1;3C": { name: "right", meta: true },
  "\x1b[1;3D": { name: "left", meta: true },
  "\x1b[1;5H": { name: "home", ctrl: true },
  "\x1b[1;5F": { name: "end", ctrl: true },
  "\x1b[3;3~": { name: "delete", meta: true },
  "\x1b[1;5C": { name: "right", ctrl: true },
  "\x1b[1;5D": { name: "left", ctrl: true },
};

/** Two or more of the same Up or Down arrow (CSI or SS3 form), and nothing else. */
const WHEEL_ARROWS = /^(?:\x1b[[O]([AB]))(?:\x1b[[O]\1)+$/;
const PASTE_START = "\x1b[200~";
const PASTE_END = "\x1b[201~";
// CSI: ESC [ params intermediates final; SS3: ESC O final.
const CSI = /^\x1b\[[0-9;:<=>?]*[ -/]*[@-~]/;
const SS3 = /^\x1bO[@-~]/;
const SGR_MOUSE = /^\x1b\[<(\d+);(\d+);(\d+)([Mm])/;
/** DECRPM, the answer to a DECRQM mode query: CSI ? mode ; state $ y. */
const MODE_REPORT = /^\x1b\[\?(\d+);(\d)\$y$/;
/** A CSI sequence cut off before its final byte (ESC O + key stays Alt+O). */
const INCOMPLETE = /^\x1b\[[0-9;:<=>?]*[ -/]*$/;
/**
 * A key in the kitty keyboard protocol (CSI code[:alternates] ; modifiers[:event] u) or in xterm's
 * modifyOtherKeys form (CSI 27 ; modifiers ; code ~), which tmux's extended keys send:
 * https://sw.kovidgoyal.net/kitty/keyboard-protocol/ and xterm's ctlseqs, "modifyOtherKeys".
 */
const CSI_U_KEY = /^\x1b\[(\d+)(?::[\d:]*)?(?:;(\d+)(?::\d+)?)?(?:;[\d:]*)?u$/;
const MODIFY_OTHER_KEY = /^\x1b\[27;(\d+);(\d+)~$/;
/** The kitty protocol's answer to CSI ? u: the flags in force (the terminal knows the protocol). */
const KEYBOARD_FLAGS = /^\x1b\[\?(\d+)u$/;
/** An OSC string (the answer to an OSC 11 colour query), ended by ST or BEL. */
const OSC = /^\x1b\]([^\x07\x1b]*)(?:\x07|\x1b\\)/;
const OSC_INCOMPLETE = /^\x1b\][^\x07\x1b]*(?:\x1b)?$/;
const BACKGROUND_REPLY = /^11;rgba?:([0-9a-f]+)\/([0-9a-f]+)\/([0-9a-f]+)/i;

function single(ch: string): Key {
  const code = ch.charCodeAt(0);
  if (ch === "\r") return { name: "enter" };
  if (ch === "\n") return { name: "j", ctrl: true };
  if (ch === "\t") return { name: "tab" };
  if (ch === "\x7f" || ch === "\b") return { name: "backspace" };
  if (ch === "\x1b") return { name: "escape" };
  if (code === 0) return { name: "space", ctrl: true };
  if (code < 27) return { name: String.fromCharCode(code + 96), ctrl: true };
  return { name: ch };
}

/** The key a kitty or modifyOtherKeys sequence names: code is a Unicode code point, mods 1 + a bit mask. */
function codeKey(code: number, mods: number): Key | null {
  const bits = Math.max(0, mods - 1);
  const named: Record<number, string> = { 13: "enter", 9: "tab", 27: "escape", 127: "backspace", 8: "backspace" };
  // Keypad Enter in kitty's private-use block.
  const name =
    code === 57414 ? "enter" : (named[code] ?? (code >= 32 && code < 57344 ? String.fromCodePoint(code) : null));
  if (!name) return null;
  const key: Key = { name: name === " " && bits & 4 ? "space" : bits & 4 ? name.toLowerCase() : name };
  if (bits & 1 && !(name.length === 1 && name !== name.toLowerCase())) key.shift = true;
  if (bits & 2) key.meta = true;
  if (bits & 4) key.ctrl = true;
  return key;
}

/** An RGB answer of 4, 8, 12 or 16 bits a channel, as 0..1. */
function channel(hex: string): number {
  return parseInt(hex, 16) / (16 ** hex.length - 1);
}

/**
 * Turns raw terminal input into Msgs: keys, bracketed pastes and mouse wheel. It keeps state
 * only for a paste that spans several reads. A lone ESC at the end of a read is the Escape key:
 * terminals send a whole sequence in one write.
 */
export function createInputDecoder() {
  let pasting: string | null = null;
  // The start of an escape sequence whose end has not arrived yet (a slow link can split one).
  let partial = "";
  return function feed(data: string): Msg[] {
    // In alternate-scroll mode a wheel notch arrives as several arrow keys in one write. Keys
    // bunched by a slow link look the same: update sends them to an open menu or dialog.
    const wheel = !partial && pasting === null ? WHEEL_ARROWS.exec(data) : null;
    if (wheel) {
      const direction = wheel[1] === "A" ? "up" : "down";
      // Each arrow is three characters and scrolls one line.
      return [{ type: "wheel", direction, lines: data.length / 3 }];
    }
    const out: Msg[] = [];
    let s = partial + data;
    partial = "";
    while (s.length > 0) {
      if (pasting !== null) {
        const end = s.indexOf(PASTE_END);
        if (end === -1) {
          pasting += s;
          return out;
        }
        out.push({ type: "paste", text: pasting + s.slice(0, end) });
        pasting = null;
        s = s.slice(end + PASTE_END.length);
        continue;
      }
      if (s.startsWith(PASTE_START)) {
        pasting = "";
        s = s.slice(PASTE_START.length);
        continue;
      }
      if (s[0] === "\x1b" && s.length > 1) {
        const mouse = SGR_MOUSE.exec(s);
        if (mouse) {
          const button = Number(mouse[1]);
          if (button === 64) out.push({ type: "wheel", direction: "up" });
          if (button === 65) out.push({ type: "wheel", direction: "down" });
          s = s.slice(mouse[0].length);
          continue;
        }
        if (s[1] === "]") {
          const osc = OSC.exec(s);
          if (!osc && OSC_INCOMPLETE.test(s)) {
            partial = s;
            return out;
          }
          if (osc) {
            const bg = BACKGROUND_REPLY.exec(osc[1]!);
            if (bg) {
              const [r, g, b] = [bg[1]!, bg[2]!, bg[3]!].map(channel) as [number, number, number];
              out.push({ type: "terminal-background", rgb: [r, g, b] });
            }
            s = s.slice(osc[0].length);
            continue;
          }
        }
        const seq = CSI.exec(s)?.[0] ?? SS3.exec(s)?.[0];
        if (!seq && INCOMPLETE.test(s)) {
          partial = s;
          return out;
        }
        if (seq === "\x1b[I" || seq === "\x1b[O") {
          out.push({ type: "focus", focused: seq === "\x1b[I" });
          s = s.slice(seq.length);
          continue;
        }
        const report = seq ? MODE_REPORT.exec(seq) : null;
        if (report) {
          out.push({ type: "terminal-mode", mode: Number(report[1]), state: Number(report[2]) });
          s = s.slice(seq!.length);
          continue;
        }
        const flags = seq ? KEYBOARD_FLAGS.exec(seq) : null;
        if (flags) {
          out.push({ type: "keyboard-protocol", flags: Number(flags[1]) });
          s = s.slice(seq!.length);
          continue;
        }
        const coded = seq ? (CSI_U_KEY.exec(seq) ?? MODIFY_OTHER_KEY.exec(seq)) : null;
        if (coded) {
          const [code, mods] = seq!.endsWith("~") ? [coded[2], coded[1]] : [coded[1], coded[2]];
          const key = codeKey(Number(code), Number(mods ?? 1));
          if (key) out.push({ type: "key", key });
          s = s.slice(seq!.length);
          continue;
        }
        if (seq) {
          const key = SEQUENCES[seq];
          if (key) out.push({ type: "key", key });
          s = s.slice(seq.length);
          continue;
        }
        // ESC + key = Alt+key (Alt+Enter inserts a new line).
        const [next] = [...s.slice(1)];
        const key = single(next!);
        out.push({ type: "key", key: { ...key, meta: true } });
        s = s.slice(1 + next!.length);
        continue;
      }
      const [ch] = [...s];
      out.push({ type: "key", key: single(ch!) });
      s = s.slice(ch!.length);
    }
    return out;
  };
}
