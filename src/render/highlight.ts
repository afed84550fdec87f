/**
 * Code in its language's colours, straight from highlight.js's token tree. cli-highlight does the
 * same by rendering highlight.js's HTML and parsing it back with parse5, whose tree building is
 * quadratic in the number of tokens: a 400 KB code block took ~5 s there, ~0.5 s here.
 */
import hljs, { type TokenNode } from "highlight.js/lib/index.js";
import type { Style } from "./theme.js";

export type CodeTheme = Record<string, Style | undefined> & { default: Style };

export function supportsLanguage(name: string): boolean {
  return hljs.getLanguage(name) !== undefined;
}

/** `language` must be supported (see `supportsLanguage`). Illegal syntax is coloured as far as it goes. */
export function highlightTokens(code: string, language: string, theme: CodeTheme): string {
  const result = hljs.highlight(code, { language, ignoreIllegals: true });
  const root = result.emitter.rootNode;
  if (!root || typeof root === "string") return theme.default(code);
  return colour(root, theme, undefined);
}

/**
 * Text outside any token takes the default colour; text inside a token is left for the token's
 * style to wrap. A token's name is its first word ("meta-keyword" is "meta"), as cli-highlight
 * reads it from the class name; an embedded language's root is no token: its text is top level.
 * Styles are applied line by line, so a line's codes never depend on the lines around it (chalk
 * would leave an empty open-close pair at the start of a line after a styled newline).
 */
function colour(node: TokenNode, theme: CodeTheme, token: string | undefined): string {
  if (typeof node === "string") return token === undefined ? byLine(theme.default, node) : node;
  const inside = !node.kind || node.sublanguage ? undefined : (/^\w+/.exec(node.kind)?.[0] ?? node.kind);
  let out = "";
  // Adjacent text pieces are one run (highlight.js adds text piecemeal): one style around it.
  let text = "";
  for (const child of node.children) {
    if (typeof child === "string") {
      text += child;
      continue;
    }
    if (text) out += colour(text, theme, inside);
    text = "";
    out += colour(child, theme, inside);
  }
  if (text) out += colour(text, theme, inside);
  if (inside === undefined) return out;
  const style = theme[inside];
  return style ? byLine(style, out) : out;
}

function byLine(style: Style, text: string): string {
  if (!text.includes("\n")) return style(text);
  return text
    .split("\n")
    .map((line) => (line ? style(line) : line))
    .join("\n");
}
