import { Chalk, type ChalkInstance } from "chalk";

/**
 * The one chalk instance of the app. Level 2 (256 colours) is forced rather than detected:
 * output goes into blessed, which parses SGR itself, so whether stdout is a TTY (it is not in
 * tests or in the worker) must not change what we produce.
 *
 * blessed drops SGR 2 (dim), so "dim" is a grey colour, not the dim attribute. Italic and
 * strikethrough get through blessed by a patch (ui/runtime/terminal.ts).
 */
export const chalk: ChalkInstance = new Chalk({ level: 2 });

export type Style = (text: string) => string;

export { COLOUR_THEMES, type ColourTheme } from "./colour-themes.js";
import type { ColourTheme } from "./colour-themes.js";

const grey = chalk.ansi256(245);

/** Named styles; every coloured thing on screen takes its colour from here. */
export const theme = {
  user: chalk.bold.ansi256(75),
  assistant: (text: string): string => text,
  thinking: chalk.ansi256(244),
  dim: grey,
  tool: chalk.ansi256(180),
  ok: chalk.green,
  err: chalk.red,
  warn: chalk.yellow,
  diffAdd: chalk.green,
  diffDel: chalk.red,
  diffHunk: chalk.cyan,
  diffHeader: chalk.bold.ansi256(250),
  lineNo: chalk.ansi256(242),
  heading: chalk.bold.ansi256(114),
  /** Headings by level: colour, then weight and underline, tell them apart. */
  heading1: chalk.bold.underline.ansi256(176),
  heading2: chalk.bold.ansi256(114),
  heading3: chalk.bold.ansi256(152),
  heading4: chalk.bold.ansi256(249),
  strong: chalk.bold,
  em: chalk.italic,
  code: chalk.ansi256(222),
  codespan: chalk.ansi256(222),
  blockquote: chalk.ansi256(246),
  quoteBar: chalk.ansi256(240),
  codeLabel: chalk.ansi256(242),
  html: grey,
  hr: grey,
  link: chalk.ansi256(75),
  href: chalk.underline.ansi256(75),
  del: chalk.strikethrough.ansi256(244),
  tableBorder: grey,
  tableHead: chalk.bold,
} satisfies Record<string, Style>;

export type ThemeName = keyof typeof theme;

/** Token colours for syntax-highlighted code blocks (highlight.js token names). */
export const codeTheme = {
  keyword: chalk.ansi256(176),
  built_in: chalk.ansi256(80),
  type: chalk.ansi256(80),
  literal: chalk.ansi256(209),
  number: chalk.ansi256(209),
  regexp: chalk.ansi256(174),
  string: chalk.ansi256(150),
  subst: chalk.ansi256(252),
  symbol: chalk.ansi256(209),
  class: chalk.ansi256(222),
  function: chalk.ansi256(111),
  title: chalk.ansi256(111),
  params: chalk.ansi256(252),
  comment: chalk.ansi256(243),
  doctag: chalk.ansi256(243),
  meta: chalk.ansi256(110),
  "meta-keyword": chalk.ansi256(110),
  "meta-string": chalk.ansi256(150),
  section: chalk.ansi256(114),
  tag: chalk.ansi256(174),
  name: chalk.ansi256(174),
  attr: chalk.ansi256(222),
  attribute: chalk.ansi256(222),
  variable: chalk.ansi256(252),
  bullet: chalk.ansi256(176),
  code: chalk.ansi256(150),
  emphasis: chalk.italic,
  strong: chalk.bold,
  formula: chalk.ansi256(252),
  link: chalk.underline.ansi256(75),
  quote: chalk.ansi256(243),
  addition: chalk.green,
  deletion: chalk.red,
  default: chalk.ansi256(252),
} satisfies Record<string, Style>;

/** xterm's default RGB for the 16 basic colours (its `XTerm*color0..15` resources). */
const BASIC_RGB: readonly (readonly [number, number, number])[] = [
  [0, 0, 0],
  [205, 0, 0],
  [0, 205, 0],
  [205, 205, 0],
  [0, 0, 238],
  [205, 0, 205],
  [0, 205, 205],
  [229, 229, 229],
  [127, 127, 127],
  [255, 0, 0],
  [0, 255, 0],
  [255, 255, 0],
  [92, 92, 255],
  [255, 0, 255],
  [0, 255, 255],
  [255, 255, 255],
];
const CUBE = [0, 95, 135, 175, 215, 255];

/** The RGB of a colour of the 256-colour palette (16-231 a 6×6×6 cube, 232-255 greys). */
function rgbOf(n: number): readonly [number, number, number] {
  if (n < 16) return BASIC_RGB[n]!;
  if (n >= 232) {
    const v = 8 + 10 * (n - 232);
    return [v, v, v];
  }
  const i = n - 16;
  return [CUBE[Math.floor(i / 36)]!, CUBE[Math.floor(i / 6) % 6]!, CUBE[i % 6]!];
}

/**
 * For a light background: greys mirrored (light grey text becomes dark grey) and the cube's
 * colours darkened to 60 % of their level, so they keep their hue and read on white.
 */
function lightColour(n: number): number {
  if (n < 16) return n;
  if (n >= 232) return 232 + (255 - n);
  const i = n - 16;
  const dark = (c: number) => Math.floor(c * 0.6);
  return 16 + 36 * dark(Math.floor(i / 36)) + 6 * dark(Math.floor(i / 6) % 6) + dark(i % 6);
}

/** The nearest of the 16 basic colours, which the terminal's own palette then draws. */
function basicColour(n: number): number {
  if (n < 16) return n;
  const [r, g, b] = rgbOf(n);
  let best = 0;
  let bestDistance = Infinity;
  BASIC_RGB.forEach(([br, bg, bb], i) => {
    const d = (r - br) ** 2 + (g - bg) ** 2 + (b - bb) ** 2;
    if (d < bestDistance) [best, bestDistance] = [i, d];
  });
  return best;
}

/** A 256-colour SGR parameter list with every colour of `map`'s theme; basic colours as 3x/9x, 4x/10x. */
function mapParams(params: string, map: (n: number) => number): string {
  const p = params.split(";");
  const out: string[] = [];
  for (let i = 0; i < p.length; i++) {
    if ((p[i] === "38" || p[i] === "48") && p[i + 1] === "5" && p[i + 2] !== undefined) {
      const n = map(Number(p[i + 2]));
      const fg = p[i] === "38";
      out.push(n < 8 ? String((fg ? 30 : 40) + n) : n < 16 ? String((fg ? 90 : 100) + n - 8) : `${p[i]};5;${n}`);
      i += 2;
      continue;
    }
    out.push(p[i]!);
  }
  return out.join(";");
}

/**
 * Every SGR sequence of `text` in theme `name` (the dark theme is the styles as written). Used
 * where the frame meets the terminal (ui/runtime/terminal.ts), so a theme change redraws cells
 * and no rendered line has to be made again.
 */
export function themeSgr(text: string, name: ColourTheme): string {
  if (name === "dark") return text;
  const map = name === "light" ? lightColour : basicColour;
  return text.replace(/\x1b\[([0-9;]*)m/g, (whole, params: string) =>
    params.includes("5;") ? `\x1b[${mapParams(params, map)}m` : whole,
  );
}

/** Light or dark, from a background colour's relative luminance (each channel 0..1). */
export function themeForBackground([r, g, b]: readonly [number, number, number]): ColourTheme {
  const linear = (c: number) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
  return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b) > 0.4 ? "light" : "dark";
}
