/**
 * The heavy half of markdown rendering: marked + marked-terminal + highlight.js + cli-table3.
 * Importing this module takes a while, so markdown.ts loads it with a dynamic import after the
 * app's first paint. Input is expected to be sanitized already.
 */
import { Marked, type Tokens } from "marked";
import { markedTerminal } from "marked-terminal";
import { highlightTokens, supportsLanguage } from "./highlight.js";
import Table from "cli-table3";
import stripAnsi from "strip-ansi";
import { codeTheme, theme } from "./theme.js";
import { displayWidth, truncateLine, wrapLine } from "./wrap.js";
import { CONTINUED_FENCE } from "./open-block.js";

const CODE_INDENT = "    ";
const QUOTE_BAR = theme.quoteBar("│") + " ";
/** Lists sit 2 columns in; items wrap under their text (markdown.ts), not under the bullet. */
const LIST_INDENT = "  ";
const BULLETS = ["•", "◦", "▪"];
const MIN_COLUMN = 3;

// marked renders synchronously, so the width of the current render can live here; the table and
// hr renderers need it and marked-terminal fixes its options at construction.
// eslint-disable-next-line no-restricted-syntax -- set and read within one synchronous render
let renderWidth = 80;
// How deep the list being rendered is nested (its bullet shape follows it).
// eslint-disable-next-line no-restricted-syntax -- set and read within one synchronous render
let listDepth = 0;

const identity = (text: string): string => text;

function unescapeEntities(text: string): string {
  return text
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, "&");
}

export function highlightCode(code: string, lang: string | undefined): string {
  const language = (lang ?? "").trim().split(/\s+/)[0] ?? "";
  // No auto-detection: guessing runs every grammar over the text, which is slow on big blocks.
  if (language === "" || !supportsLanguage(language)) return theme.code(code);
  try {
    return highlightTokens(code, language, codeTheme);
  } catch {
    return theme.code(code);
  }
}

/**
 * Content width per column so that the whole table fits in `width` (cli-table3 adds 3 per column
 * + 1), or undefined when it cannot fit readably: the table is then cut at the right edge.
 */
function fitColumns(natural: number[], width: number): number[] | undefined {
  const available = width - 3 * natural.length - 1;
  const total = natural.reduce((a, b) => a + b, 0);
  if (total <= available) return natural;
  const capped = (cap: number): number => natural.reduce((a, w) => a + Math.min(w, cap), 0);
  // Columns squeezed below this are unreadable; cutting the table at the edge reads better.
  if (capped(MIN_COLUMN) > available) return undefined;
  // Cap the widest columns: the largest cap c with sum(min(w, c)) <= available.
  let cap = Math.max(...natural);
  while (cap > MIN_COLUMN && capped(cap) > available) cap--;
  return natural.map((w) => Math.min(w, cap));
}

function renderTable(head: string[], rows: string[][], align: Array<"left" | "center" | "right" | null>): string {
  const all = [head, ...rows];
  const columns = Math.max(...all.map((r) => r.length));
  const natural = Array.from({ length: columns }, (_, i) => Math.max(1, ...all.map((r) => displayWidth(r[i] ?? ""))));
  const fitted = fitColumns(natural, renderWidth);
  const cell = (text: string, i: number): string => (fitted ? wrapLine(text, fitted[i] ?? 1).join("\n") : text);
  const table = new Table({
    head: head.map((h, i) => theme.tableHead(cell(h, i))),
    style: { head: [], border: [] },
    colAligns: Array.from({ length: columns }, (_, i) => align[i] ?? "left"),
    ...(fitted ? { colWidths: fitted.map((w) => w + 2) } : {}),
  });
  for (const row of rows) table.push(Array.from({ length: columns }, (_, i) => cell(row[i] ?? "", i)));
  // Borders are plain characters from cli-table3; colour them as one.
  return table
    .toString()
    .split("\n")
    .map((line) =>
      truncateLine(
        line.replace(/[─-╿]+/g, (b) => theme.tableBorder(b)),
        renderWidth,
      ),
    )
    .join("\n");
}

const marked = new Marked();
marked.use(
  markedTerminal({
    showSectionPrefix: false,
    code: theme.code,
    blockquote: theme.blockquote,
    html: theme.html,
    hr: theme.hr,
    listitem: identity,
    table: identity,
    paragraph: identity,
    strong: theme.strong,
    em: theme.em,
    codespan: theme.codespan,
    del: theme.del,
    link: theme.link,
    href: theme.href,
    reflowText: false,
    emoji: true,
    unescape: true,
    tab: CODE_INDENT.length,
  }),
);
marked.use({
  renderer: {
    // marked >= 13 hands list items text tokens whose inline markup marked-terminal prints raw
    // (marked-terminal #304/#371); render their inline tokens instead.
    text(token: Tokens.Text | Tokens.Escape) {
      return "tokens" in token && token.tokens ? this.parser.parseInline(token.tokens) : false;
    },
    // The language is named above the code, dim, once per block (not on a streamed block's
    // later pieces, whose reopened fence says so).
    code(token: Tokens.Code) {
      const words = (token.lang ?? "").trim().split(/\s+/);
      const lang = words[0] === CONTINUED_FENCE ? "" : (words[0] ?? "");
      const body = highlightCode(token.text, lang);
      const label = lang && !words.includes(CONTINUED_FENCE) ? CODE_INDENT + theme.codeLabel(lang) + "\n" : "";
      return label + CODE_INDENT + body.split("\n").join("\n" + CODE_INDENT) + "\n\n";
    },
    // A left bar on every line of a quote, nested quotes one bar each (markdown.ts keeps the bar
    // on wrapped lines).
    blockquote(token: Tokens.Blockquote) {
      const inner = this.parser.parse(token.tokens).replace(/\s+$/, "");
      return (
        inner
          .split("\n")
          .map((line) => QUOTE_BAR + theme.blockquote(line))
          .join("\n") + "\n\n"
      );
    },
    table(token: Tokens.Table) {
      const inline = (c: Tokens.TableCell): string => unescapeEntities(this.parser.parseInline(c.tokens));
      const head = token.header.map(inline);
      const rows = token.rows.map((row) => row.map(inline));
      return renderTable(head, rows, token.align) + "\n\n";
    },
    // Links print as `text (url)`: never an OSC 8 hyperlink, whatever the scheme.
    link(token: Tokens.Link) {
      const text = this.parser.parseInline(token.tokens);
      const plain = stripAnsi(text);
      if (plain === "" || plain === token.href || `mailto:${plain}` === token.href) return theme.href(token.href);
      return theme.link(text) + theme.dim(" (") + theme.href(token.href) + theme.dim(")");
    },
    hr() {
      return theme.hr("─".repeat(renderWidth)) + "\n\n";
    },
    heading(token: Tokens.Heading) {
      const style = [theme.heading1, theme.heading2, theme.heading3][token.depth - 1] ?? theme.heading4;
      return style(this.parser.parseInline(token.tokens)) + "\n\n";
    },
    list(token: Tokens.List) {
      listDepth++;
      try {
        const bullet = BULLETS[(listDepth - 1) % BULLETS.length]!;
        const start = typeof token.start === "number" ? token.start : 1;
        const markers = token.items.map((_, i) => (token.ordered ? `${start + i}.` : bullet));
        const width = Math.max(...markers.map((m) => m.length));
        // A nested list already starts under its parent's text.
        const indent = listDepth === 1 ? LIST_INDENT : "";
        const items = token.items.map((item, i) => {
          // A tight item's text is a bare text token: it ends its line before a nested list.
          const parts = item.tokens.map((t) =>
            t.type === "text"
              ? this.parser.parseInline((t as Tokens.Text).tokens ?? [t]) + "\n"
              : this.parser.parse([t]),
          );
          const body = parts
            .join("")
            .replace(/\n{3,}/g, "\n\n")
            .replace(/\s+$/, "");
          const hang = " ".repeat(width + 1);
          return body
            .split("\n")
            .map((line, l) => indent + (l === 0 ? markers[i]!.padEnd(width) + " " : line ? hang : "") + line)
            .join("\n");
        });
        // Loose items (blank lines between them in the source) stay together: compact reads better.
        return items.join("\n") + (listDepth === 1 ? "\n\n" : "\n");
      } finally {
        listDepth--;
      }
    },
  },
});

/** Markdown to styled text (SGR only), lines not yet wrapped. */
export function renderStyled(text: string, width: number): string {
  renderWidth = width;
  listDepth = 0;
  return marked.parse(text, { async: false });
}
