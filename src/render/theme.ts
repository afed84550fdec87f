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
