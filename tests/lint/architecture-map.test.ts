// ARCHITECTURE.md is the map a newcomer trusts before reading the code. It rotted once: topics written
// twice, the older copies naming files that had moved, copied lists of commands already incomplete.
// This test holds it to the code: every path it names exists, every Msg, Cmd, AgentEvent and
// WorkerCommand kind it names is a real member of its union (read by the TypeScript compiler), and
// no topic heading appears twice. The map marks what it names so the test can find it:
// - the folder tree is the fenced block tagged `tree` (two spaces per level; a description follows
//   two spaces or more, and its continuation lines are indented past the names);
// - a path is backticked (`agent/loop.ts`, from src/ or the repository's root);
// - a kind is backticked and followed by its noun: `run` command, `permission-request` event,
//   `boot-ready` Msg, `worker` Cmd (a list may share the noun: `run`, `compact` and `cancel` commands).
import fs from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../..");
const MAP_FILE = path.join(ROOT, "ARCHITECTURE.md");

const NAME = /^[\w.@-]+(\/[\w.@-]+)*\/?$/;

/** The paths the `tree` block names, each with its folders (relative to the repository's root). */
function treePaths(markdown: string): string[] {
  const block = /^```tree\n([\s\S]*?)^```/m.exec(markdown)?.[1];
  if (block === undefined) return [];
  const folders: string[] = [];
  const out: string[] = [];
  for (const line of block.split("\n")) {
    const indent = line.length - line.trimStart().length;
    const head = line.trim().split(/\s{2,}/)[0] ?? "";
    const names = head.split(" ");
    const level = indent / 2;
    if (head === "" || !Number.isInteger(level) || level > folders.length) continue;
    if (!names.every((n) => NAME.test(n))) continue;
    folders.length = level;
    const base = folders.join("");
    for (const name of names) out.push(base + name);
    const last = names[names.length - 1] ?? "";
    if (names.length === 1 && last.endsWith("/")) folders.push(last);
  }
  return out;
}

/** Backticked words that are paths: a folder in them, or a source or document file's extension. */
function prosePaths(markdown: string): string[] {
  const out: string[] = [];
  for (const m of markdown.matchAll(/`([^`\n]+)`/g)) {
    const word = m[1] ?? "";
    // Not paths in this repository: a user's files, URLs, API routes, slash commands, templates.
    if (/^(\/|~|https?:|-|dist\/|node_modules)|[\s<>*$]/.test(word)) continue;
    const looksLikePath = /\//.test(word) || /\.(ts|mts|js|mjs|cjs|json|md|py|sh)$/.test(word);
    if (!looksLikePath || !NAME.test(word)) continue;
    out.push(word);
  }
  return out;
}

let fileNames: Set<string> | undefined;
function repoFileNames(): Set<string> {
  if (fileNames) return fileNames;
  fileNames = new Set();
  for (const dir of ["src", "tests", "scripts", "bench", "bin"]) {
    for (const entry of fs.readdirSync(path.join(ROOT, dir), { recursive: true, withFileTypes: true })) {
      fileNames.add(entry.name);
    }
  }
  return fileNames;
}

/** Where a named path is: from src/, then from the root; a bare file name anywhere in the code. */
function resolves(named: string, root = ROOT): boolean {
  const plain = named.replace(/\/$/, "");
  // A dot-folder the repository does not have (`.claude/`, `.agent0/`) is a user's project file.
  if (plain.startsWith(".") && !fs.existsSync(path.join(root, plain.split("/")[0] ?? ""))) return true;
  if (fs.existsSync(path.join(root, "src", plain)) || fs.existsSync(path.join(root, plain))) return true;
  return !plain.includes("/") && root === ROOT && repoFileNames().has(plain);
}

const NOUNS = {
  event: "AgentEvent",
  events: "AgentEvent",
  command: "WorkerCommand",
  commands: "WorkerCommand",
  Msg: "Msg",
  Msgs: "Msg",
  Cmd: "Cmd",
  Cmds: "Cmd",
} as const;
type Union = (typeof NOUNS)[keyof typeof NOUNS];

/** Kinds the map names with their noun: "`run`, `compact` and `cancel` commands", "`key` Msg". */
function namedKinds(markdown: string): { kind: string; union: Union }[] {
  const out: { kind: string; union: Union }[] = [];
  const list = /((?:`[a-z][a-z-]*`(?:, | and | or | \/ ))*`[a-z][a-z-]*`) (events?|commands?|Msgs?|Cmds?)\b/g;
  for (const m of markdown.matchAll(list)) {
    const union = NOUNS[m[2] as keyof typeof NOUNS];
    for (const k of (m[1] ?? "").matchAll(/`([a-z-]+)`/g)) out.push({ kind: k[1] ?? "", union });
  }
  return out;
}

/** The `type` literals of each border's union, as the compiler sees them. */
let kindsRead: Record<Union, Set<string>> | undefined;
function unionKinds(): Record<Union, Set<string>> {
  return (kindsRead ??= readUnionKinds());
}
function readUnionKinds(): Record<Union, Set<string>> {
  const files = {
    Msg: "src/ui/msg.ts",
    Cmd: "src/ui/msg.ts",
    AgentEvent: "src/protocol/agent-event.ts",
    WorkerCommand: "src/protocol/worker-command.ts",
  } as const;
  const program = ts.createProgram(
    Object.values(files).map((f) => path.join(ROOT, f)),
    // The members are written out in these files: reading them alone (no imports, no lib) takes
    // ~0.1 s instead of ~5 s, and the counts below catch a member that would then go unread.
    { noEmit: true, noResolve: true, noLib: true, types: [] },
  );
  const checker = program.getTypeChecker();
  const result = {} as Record<Union, Set<string>>;
  for (const [union, file] of Object.entries(files) as [Union, string][]) {
    const source = program.getSourceFile(path.join(ROOT, file));
    const symbol = source && checker.getSymbolAtLocation(source)?.exports?.get(ts.escapeLeadingUnderscores(union));
    const kinds = new Set<string>();
    if (symbol) {
      const type = checker.getDeclaredTypeOfSymbol(symbol);
      for (const member of type.isUnion() ? type.types : [type]) {
        const tag = member.getProperty("type");
        const tagType = tag && checker.getTypeOfSymbol(tag);
        if (tagType?.isStringLiteral()) kinds.add(tagType.value);
      }
    }
    result[union] = kinds;
  }
  return result;
}

const map = fs.readFileSync(MAP_FILE, "utf8");
const read = (file: string) => fs.readFileSync(path.join(ROOT, file), "utf8");
/** The docs a user or a contributor reads: README, CONTRIBUTING, the map and everything in docs/. */
const DOCS = [
  "README.md",
  "CONTRIBUTING.md",
  "ARCHITECTURE.md",
  ...fs.readdirSync(path.join(ROOT, "docs")).map((f) => `docs/${f}`),
];

describe("ARCHITECTURE.md against the code", () => {
  it("names only folders and files that exist", () => {
    const named = [...treePaths(map), ...prosePaths(map)];
    // The readers found the map's names at all: a changed notation would check nothing.
    expect(treePaths(map).length).toBeGreaterThan(100);
    expect(prosePaths(map).length).toBeGreaterThan(150);
    expect(named.filter((p) => !resolves(p))).toEqual([]);
  });

  it("names only kinds its border's union has", () => {
    const kinds = unionKinds();
    // The compiler read each union: an empty set would let any name pass.
    expect(kinds.Msg.size).toBeGreaterThan(30);
    expect(kinds.Cmd.size).toBeGreaterThan(15);
    expect(kinds.AgentEvent.size).toBeGreaterThan(15);
    expect(kinds.WorkerCommand.size).toBeGreaterThan(8);
    const named = namedKinds(map);
    expect(new Set(named.map((n) => n.union)).size).toBe(4);
    expect(named.filter(({ kind, union }) => !kinds[union].has(kind))).toEqual([]);
  });

  it("writes each topic once", () => {
    const headings = [...map.matchAll(/^#+ (.+)$/gm)].map((m) => m[1]);
    const topics = [...map.matchAll(/^- \*\*([^*]+)\*\*/gm)].map((m) => m[1]);
    for (const list of [headings, topics]) expect(list.filter((t, i) => list.indexOf(t) !== i)).toEqual([]);
    expect(topics.length).toBeGreaterThan(10);
  });

  it("the other docs name only files that exist, and no issue numbers", () => {
    expect(DOCS.length).toBeGreaterThanOrEqual(4);
    expect(prosePaths(read("CONTRIBUTING.md")).filter((p) => !resolves(p))).toEqual([]);
    // An issue number means nothing to a user; what it changed belongs in the text, its history in git.
    const numbered = DOCS.flatMap((f) =>
      [...read(f).matchAll(/.{0,30}\bissues? #?\d+.{0,30}/gi)].map((m) => `${f}: ${m[0]}`),
    );
    expect(numbered).toEqual([]);
  });

  // The readers themselves: a path that moved and a kind that was renamed are caught.
  it("catches a moved file and a renamed kind", () => {
    const moved =
      "```tree\nsrc/\n  agent/\n    loop.ts    the loop\n    gone.ts    moved away\n```\n`tools/nowhere.ts`";
    expect([...treePaths(moved), ...prosePaths(moved)].filter((p) => !resolves(p))).toEqual([
      "src/agent/gone.ts",
      "tools/nowhere.ts",
    ]);
    const kinds = unionKinds();
    const renamed = namedKinds("the `run`, `compact` and `kompact` commands; the `tool-end` event");
    expect(renamed.filter(({ kind, union }) => !kinds[union].has(kind))).toEqual([
      { kind: "kompact", union: "WorkerCommand" },
    ]);
  });
});
