// The near-misses small models send as old_string, one case per kind (the kinds opencode's edit
// replacers, aider's editblock coder and Codex's apply_patch fuzz each handle), and the edits
// that must be refused rather than guessed. Each case asserts the file that results, or the refusal.
import { describe, expect, it } from "vitest";
import { planEdit } from "../../src/tools/files/edit-match.js";
import { applySplices, fileTextOf } from "../../src/tools/files/file-text.js";

const PY = [
  "def greet(name):",
  '    """Say hello."""',
  "    message = 'Hello, ' + name",
  "    print(message)",
  "    return message",
  "",
  "",
  "def part(name):",
  "    return 'Bye, ' + name",
  "",
].join("\n");

const TS = [
  "export class Parser {",
  "  parse(argv: string[]) {",
  "    const flags = new Map<string, string>();",
  "    for (const arg of argv) {",
  '      const [k, v] = arg.split("=");',
  "      flags.set(k, v);",
  "    }",
  "    return flags;",
  "  }",
  "}",
  "",
].join("\n");

interface Case {
  what: string;
  file: string;
  old: string;
  new: string;
  strategy: string;
  after: string;
}

const CASES: Case[] = [
  {
    what: "exact text",
    file: PY,
    old: "    print(message)\n",
    new: "    print(message.upper())\n",
    strategy: "exact",
    after: PY.replace("print(message)", "print(message.upper())"),
  },
  {
    what: "trailing spaces the file does not have",
    file: PY,
    old: "    message = 'Hello, ' + name   \n    print(message)  ",
    new: "    message = 'Hi, ' + name\n    print(message)",
    strategy: "line-trimmed",
    after: PY.replace("'Hello, '", "'Hi, '"),
  },
  {
    what: "the block without its indentation: new_string is re-indented",
    file: TS,
    old: 'for (const arg of argv) {\n  const [k, v] = arg.split("=");\n  flags.set(k, v);',
    new: 'for (const arg of argv) {\n  const [k, v] = arg.split("=");\n  flags.set(k.trim(), v);',
    strategy: "indentation-flexible",
    after: TS.replace("flags.set(k, v)", "flags.set(k.trim(), v)"),
  },
  {
    what: "2-space indentation copied from a 4-space file: new_string is scaled",
    file: PY,
    old: 'def greet(name):\n  """Say hello."""',
    new: 'def greet(name):\n  """Say hello."""\n  if not name:\n    name = \'you\'',
    strategy: "indentation-flexible",
    after: PY.replace('"""Say hello."""', `"""Say hello."""\n    if not name:\n        name = 'you'`),
  },
  {
    what: "tabs and doubled spaces inside lines",
    file: TS,
    old: "    const flags  =  new Map<string, string>();\n    for (const arg of\targv) {",
    new: "    const flags = new Map<string, string | undefined>();\n    for (const arg of argv) {",
    strategy: "whitespace-normalised",
    after: TS.replace("new Map<string, string>()", "new Map<string, string | undefined>()"),
  },
  {
    what: "newlines and quotes written as escapes",
    file: PY,
    old: '    \\"\\"\\"Say hello.\\"\\"\\"\\n    message = \'Hello, \' + name',
    new: '    \\"\\"\\"Say hello warmly.\\"\\"\\"\\n    message = \'Hello, \' + name',
    strategy: "escape-normalised",
    after: PY.replace("Say hello.", "Say hello warmly."),
  },
  {
    what: "line numbers copied from read_file",
    file: PY,
    old: "     8\tdef part(name):\n     9\t    return 'Bye, ' + name",
    new: "     8\tdef part(name):\n     9\t    return 'Goodbye, ' + name",
    strategy: "line-numbers-stripped",
    after: PY.replace("'Bye, '", "'Goodbye, '"),
  },
  {
    what: "diff prefixes",
    file: PY,
    old: " def part(name):\n-    return 'Bye, ' + name",
    new: " def part(name):\n+    return 'See you, ' + name",
    strategy: "diff-prefixes-stripped",
    after: PY.replace("'Bye, '", "'See you, '"),
  },
  {
    what: "smart quotes for straight ones",
    file: TS,
    old: "const [k, v] = arg.split(“=”);",
    new: 'const [k, v] = arg.split(":");',
    strategy: "smart-quotes-normalised",
    after: TS.replace('arg.split("=")', 'arg.split(":")'),
  },
  {
    what: "first and last lines right, a middle line misremembered",
    file: TS,
    old: "    for (const arg of argv) {\n      const [k, v] = arg.split('=');\n      flags.set(k, v);\n    }",
    new: "    for (const arg of argv) flags.set(...arg.split('='));",
    strategy: "block-anchor",
    after: TS.replace(
      '    for (const arg of argv) {\n      const [k, v] = arg.split("=");\n      flags.set(k, v);\n    }',
      "    for (const arg of argv) flags.set(...arg.split('='));",
    ),
  },
  {
    what: "whitespace ignored altogether: one line for a block spread over lines",
    file: TS,
    old: 'for(const arg of argv){const [k,v]=arg.split("=");',
    new: 'for(const arg of argv){const [k,v]=arg.split(":");',
    strategy: "whitespace-blind",
    after: TS.replace('arg.split("=")', 'arg.split(":")'),
  },
  {
    what: "a small typo in one identifier of a short string",
    file: TS,
    old: "    const flgas = new Map<string, string>();",
    new: "    const flgas = new Map<string, string | undefined>();",
    strategy: "small-typo",
    after: TS.replace("new Map<string, string>()", "new Map<string, string | undefined>()"),
  },
  {
    what: "an elided middle: both ends change, the middle stays",
    file: TS,
    old: "  parse(argv: string[]) {\n    // ... existing code ...\n    return flags;",
    new: "  parse(argv: readonly string[]) {\n    // ... existing code ...\n    return new Map(flags);",
    strategy: "elided-middle",
    after: TS.replace("parse(argv: string[])", "parse(argv: readonly string[])").replace(
      "return flags;",
      "return new Map(flags);",
    ),
  },
];

function edit(file: string, old: string, neu: string, all = false) {
  const text = fileTextOf(file, "utf8", false);
  const plan = planEdit(text.lf, old, neu, all);
  return plan.ok ? { ok: true as const, after: applySplices(text, plan.splices), strategy: plan.strategy } : plan;
}

describe("edit_file's matching cascade", () => {
  it.each(CASES.map((c) => [c.what, c] as const))("%s", (_what, c) => {
    expect(edit(c.file, c.old, c.new)).toEqual({ ok: true, after: c.after, strategy: c.strategy });
  });

  it("covers every strategy with a case", async () => {
    const { STRATEGIES } = await import("../../src/tools/files/edit-match.js");
    expect(new Set(CASES.map((c) => c.strategy))).toEqual(new Set(STRATEGIES));
  });
});

describe("edits that must be refused, not guessed", () => {
  it("refuses near-duplicate blocks that a loose strategy cannot tell apart, listing them", () => {
    const file = "if (a) {\n  run(a);\n}\nif (a) {\n    run(a);\n}\n";
    const r = edit(file, "if (a) {\nrun(a);\n}", "if (a) {\n  run(b);\n}");
    expect(r).toEqual({
      ok: false,
      strategy: "indentation-flexible",
      error:
        "old_string matches 2 places (lines 1, 4, by indentation-flexible). Add surrounding lines to make it unique, or set replace_all to true.",
    });
  });

  it("does not rewrite a different function that only shares the first and last lines", () => {
    const file = [
      "/**",
      " * Adds two numbers.",
      " */",
      "function add(a, b) {",
      "  return a + b;",
      "}",
      "/**",
      " * Removes every file under a folder, recursively.",
      " */",
      "function wipe(dir) {",
      "  fs.rmSync(dir, { recursive: true });",
      "}",
      "",
    ].join("\n");
    const old = "/**\n * Multiplies two numbers.\n */\nfunction mul(a, b) {\n  return a * b;\n}";
    const r = edit(file, old, "/** gone */");
    expect(r.ok).toBe(false);
  });

  it("refuses a new_string that puts a placeholder where code was", () => {
    const r = edit(TS, "    return flags;\n  }", "    // ... rest of the code unchanged ...\n  }");
    expect(r).toEqual({
      ok: false,
      error:
        'new_string holds a placeholder, "// ... rest of the code unchanged ...", that is neither in old_string nor in the file: it would replace real code with it. Write the text in full in new_string, every line of it.',
    });
    const py = edit(PY, "    print(message)\n    return message", "    # ... rest unchanged\n    return message");
    expect(py.ok).toBe(false);
  });

  it("refuses a multi-line old_string cut off in the middle of a word", () => {
    const r = edit(TS, "  parse(argv: string[]) {\n    const fla", "  parse(args: string[]) {\n    const fla");
    expect(r).toEqual({
      ok: false,
      strategy: "exact",
      error:
        'old_string ends in the middle of "flags" (line 3): it would leave half a word behind. End old_string with whole lines.',
    });
  });

  it("shows the closest region when nothing matches", () => {
    const r = edit(TS, "    for (const a of args) {\n      flags.add(a);", "x");
    expect(r.ok).toBe(false);
    expect(!r.ok && r.error).toBe(
      "old_string was not found. The closest region (lines 1-7) is:\n" +
        TS.split("\n")
          .slice(0, 7)
          .map((l, i) => `${String(i + 1).padStart(6)}\t${l}`)
          .join("\n") +
        "\nCopy old_string exactly from it (without the line numbers).",
    );
  });
});

describe("the file's own bytes", () => {
  it("writes new lines with the file's CRLF endings, never mixed", () => {
    const text = fileTextOf("a\r\nb\r\nc\r\n", "utf8", false);
    const plan = planEdit(text.lf, "b\r\n", "b1\nb2\n", false);
    expect(plan.ok && applySplices(text, plan.splices)).toBe("a\r\nb1\r\nb2\r\nc\r\n");
  });

  it("keeps a mixed file's other lines as they were", () => {
    const text = fileTextOf("a\r\nb\nc\r\nd\r\n", "utf8", false);
    const plan = planEdit(text.lf, "c", "C", false);
    expect(plan.ok && applySplices(text, plan.splices)).toBe("a\r\nb\nC\r\nd\r\n");
  });
});
