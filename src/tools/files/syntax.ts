// Whether a file parses, by tree-sitter (web-tree-sitter with the grammars' WebAssembly builds
// from tree-sitter-wasms, YAML's from @tree-sitter-grammars/tree-sitter-yaml). Nothing loads at start-up: the runtime and each grammar are read on the
// first edit of a file in that language, then kept for the process. Both packages are required
// at run time (createRequire), never bundled: the wasm files sit beside their loaders.
import { createRequire } from "node:module";
import path from "node:path";
import type ParserType from "web-tree-sitter";
import { lazily } from "../../context/lazily.js";

/** File extensions (and a few names) by the grammar that reads them. */
const GRAMMARS = {
  typescript: [".ts", ".mts", ".cts"],
  tsx: [".tsx"],
  javascript: [".js", ".mjs", ".cjs", ".jsx"],
  python: [".py", ".pyi"],
  go: [".go"],
  rust: [".rs"],
  java: [".java"],
  c: [".c", ".h"],
  cpp: [".cc", ".cpp", ".cxx", ".c++", ".hpp", ".hh", ".hxx"],
  c_sharp: [".cs"],
  ruby: [".rb", ".rake", ".gemspec"],
  php: [".php"],
  bash: [".sh", ".bash"],
  json: [".json"],
  yaml: [".yaml", ".yml"],
  toml: [".toml"],
  css: [".css"],
  html: [".html", ".htm"],
} as const;

export type Grammar = keyof typeof GRAMMARS;

/** Grammars from elsewhere: tree-sitter-wasms' YAML build needs a newer runtime than its others. */
const WASM: Partial<Record<Grammar, string>> = {
  yaml: "@tree-sitter-grammars/tree-sitter-yaml/tree-sitter-yaml.wasm",
};

/** Files larger than this are not parsed: the check must stay a small part of an edit. */
const MAX_PARSED = 1_000_000;

/** The grammar of a file by its name, or undefined for a language without one. */
export function grammarOf(file: string): Grammar | undefined {
  const ext = path.extname(file).toLowerCase();
  for (const [g, exts] of Object.entries(GRAMMARS) as [Grammar, readonly string[]][]) if (exts.includes(ext)) return g;
  return undefined;
}

/** The first place a text does not parse: its line (1-based) and that line's text. */
export interface ParseError {
  line: number;
  text: string;
}

const requireHere = lazily(() => createRequire(import.meta.url));

const runtime = lazily(async (): Promise<typeof ParserType> => {
  const Parser = requireHere()("web-tree-sitter") as typeof ParserType;
  await Parser.init();
  return Parser;
});

const parsers = Object.fromEntries(
  (Object.keys(GRAMMARS) as Grammar[]).map((g) => [
    g,
    lazily(async () => {
      const Parser = await runtime();
      const wasm = requireHere().resolve(WASM[g] ?? `tree-sitter-wasms/out/tree-sitter-${g}.wasm`);
      const parser = new Parser();
      parser.setLanguage(await Parser.Language.load(wasm));
      return parser;
    }),
  ]),
) as Record<Grammar, () => Promise<ParserType>>;

/**
 * The first syntax error of `text` in `grammar`: null when it parses, undefined when it could not
 * be judged (too large, or the grammar failed to load).
 */
export async function firstParseError(text: string, grammar: Grammar): Promise<ParseError | null | undefined> {
  if (text.length > MAX_PARSED) return undefined;
  let parser: ParserType;
  try {
    parser = await parsers[grammar]();
  } catch {
    return undefined;
  }
  const tree = parser.parse(text);
  try {
    const row = firstErrorRow(tree.rootNode);
    if (row === undefined) return null;
    return { line: row + 1, text: text.split("\n")[row] ?? "" };
  } finally {
    tree.delete();
  }
}

/** The row of the first ERROR or MISSING node, in document order. */
function firstErrorRow(root: ParserType.SyntaxNode): number | undefined {
  if (!root.hasError) return undefined;
  let node = root;
  for (;;) {
    if (node.type === "ERROR" || node.isMissing) return node.startPosition.row;
    const next = node.children.find((c) => c.hasError || c.isMissing || c.type === "ERROR");
    if (!next) return node.startPosition.row;
    node = next;
  }
}
