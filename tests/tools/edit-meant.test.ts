// Edits proven, not guessed (issue 37, part 1): whichever strategy found the place, what is
// written is new_string token for token, indented at the file's indentation there plus the
// model's relative indentation, with unchanged lines' bytes kept; placeholders are refused. Each
// case cites its source. The six shapes of the issue are the first table: each wrote a wrong
// file on main at 2d5cc0e (run this file there to see all six fail).
import { describe, expect, it } from "vitest";
import { planEdit } from "../../src/tools/files/edit-match.js";
import { applySplices, fileTextOf } from "../../src/tools/files/file-text.js";
import { verifySplice } from "../../src/tools/files/edit-verify.js";

interface Case {
  what: string;
  source: string;
  file: string;
  old: string;
  new: string;
  /** The file after the edit, or the check that refuses it (a fragment of the refusal). */
  after: string;
  refusedBy?: keyof typeof CHECKS;
}

/** Each check's words in a refusal: the table counts which check caught which case. */
const CHECKS = {
  edges: "not found",
  tokens: "it would write",
  kept: "it would rewrite",
  placeholder: "placeholder",
} as const;

function edit(file: string, old: string, neu: string) {
  const text = fileTextOf(file, "utf8", false);
  const plan = planEdit(text.lf, old, neu, false);
  return plan.ok ? { ok: true as const, after: applySplices(text, plan.splices), strategy: plan.strategy } : plan;
}

function check(c: Case): void {
  const r = edit(c.file, c.old, c.new);
  if (c.refusedBy) {
    expect(r.ok, r.ok ? `applied by ${r.strategy}:\n${JSON.stringify(r.after)}` : "").toBe(false);
    if (!r.ok) {
      expect(r.error).toContain(CHECKS[c.refusedBy]);
      if (/not found/.test(r.error)) expect(r.error).toContain("closest region");
    }
    return;
  }
  expect(r, JSON.stringify(r)).toMatchObject({ ok: true, after: c.after });
}

const SHAPES: Case[] = [
  {
    what: "1: old 'line2\\n' for the line ' line2 ': the new line gets the line's one space, not two",
    source: "issue 37 shape 1 (held-out corpus); aider tests/basic/test_editblock.py missing-leading-whitespace cases",
    file: "line1\n line2 \nline3\n",
    old: "line2\n",
    new: "replaced\n",
    after: "line1\n replaced\nline3\n",
  },
  {
    what: "2: old without indent, new with the file's indent: not the file's indent added to the model's",
    source: "issue 37 shape 2 (held-out corpus)",
    file: "class A {\n  foo() {}\n\n  function oldFunc() {}\n}\n",
    old: "\nfunction oldFunc() {}",
    new: "\n  function newFunc() {}",
    after: "class A {\n  foo() {}\n\n  function newFunc() {}\n}\n",
  },
  {
    what: "3: lines mixing tabs and spaces keep their bytes when the model changes their text",
    source: "issue 37 shape 3 (held-out corpus)",
    file: "function f() {\n  \tconsole.log('a');\n\t  const b = 2;\n}\n",
    old: "console.log('a');\nconst b = 2;",
    new: "console.log('b');\nconst b = 3;",
    after: "function f() {\n  \tconsole.log('b');\n\t  const b = 3;\n}\n",
  },
  {
    what: "4: old 'This is a sample text\\n' where the line ends with '.': no 'text..'",
    source: "issue 37 shape 4; aider tests/basic/test_editblock.py __test_replace_most_similar_chunk",
    file: "This is a sample text.\nAnother line of text.\nYet another line.\n",
    old: "This is a sample text\n",
    new: "This is a replaced text.\n",
    after: "",
    refusedBy: "edges",
  },
  {
    what: "6: a placeholder '(rest of methods ...)' is not written into the code",
    source: "issue 37 shape 6; aider aider/coders/base_prompts.py lazy_prompt (models eliding code)",
    file: "class A:\n    def a(self):\n        pass\n    def b(self):\n        pass\n",
    old: "    def a(self):\n        pass\n    def b(self):\n        pass\n",
    new: "    def a(self):\n        return 1\n    (rest of methods ...)\n",
    after: "",
    refusedBy: "placeholder",
  },
];

const INDENT: Case[] = [
  {
    what: "aider: some leading whitespace missing, a line indented deeper in new_string",
    source: "aider tests/basic/test_editblock.py test_replace_part_with_just_some_missing_leading_whitespace",
    file: "    line1\n    line2\n    line3\n",
    old: " line1\n line2\n",
    new: " new_line1\n     new_line2\n",
    after: "    new_line1\n        new_line2\n    line3\n",
  },
  {
    what: "aider: a blank first line and two-space indent for four",
    source:
      "aider tests/basic/test_editblock.py test_replace_part_with_missing_leading_whitespace_including_blank_line",
    file: "    line1\n    line2\n    line3\n",
    old: "\n  line1\n  line2\n",
    new: "  new_line1\n  new_line2\n",
    after: "    new_line1\n    new_line2\n    line3\n",
  },
  {
    what: "Python: a body indented with a tab then spaces keeps those bytes",
    source: "CPython docs, Lexical analysis 2.1.8 (tabs then spaces are consistent indentation); issue 37 part 3.2",
    file: "def f(x):\n\tif x:\n\t    return 1\n\treturn 2\n",
    old: "if x:\n    return 1",
    new: "if x:\n    return 10",
    after: "def f(x):\n\tif x:\n\t    return 10\n\treturn 2\n",
  },
  {
    what: "Python: a line added under a tab-and-spaces line takes its bytes",
    source: "CPython docs, Lexical analysis 2.1.8; issue 37 part 3.2",
    file: "def f(x):\n\tif x:\n\t    y = 1\n\treturn 2\n",
    old: "if x:\n    y = 1",
    new: "if x:\n    y = 1\n    z = 2",
    after: "def f(x):\n\tif x:\n\t    y = 1\n\t    z = 2\n\treturn 2\n",
  },
  {
    what: "Python: a line added a level deeper, in a tab-indented function of a space-indented file, takes the tabs of the line at that depth",
    source:
      "CPython docs, Lexical analysis 2.1.8 (tabs and spaces mixed inconsistently is a TabError); PEP 8 'Tabs or Spaces?' (older code mixes them by function); issue 37 part 1 (a new line takes its neighbour's bytes at the same depth)",
    file: "def f():\n    a = 1\n    b = 2\n    c = 3\n    return a\n\n\ndef g(x):\n\tif x:\n\t\treturn 2\n\treturn 3\n",
    old: "    if x:\n        return 2\n    return 3",
    new: "    if x:\n        log(x)\n        return 2\n    return 3",
    after:
      "def f():\n    a = 1\n    b = 2\n    c = 3\n    return a\n\n\ndef g(x):\n\tif x:\n\t\tlog(x)\n\t\treturn 2\n\treturn 3\n",
  },
  {
    what: "Makefile: a recipe line added with spaces gets the tab recipes need",
    source:
      "GNU make manual 5.1 Recipe Syntax (a recipe line starts with a tab); aider/Continue users' Makefile reports",
    file: "all: build\n\nbuild:\n\tgo build ./...\n\ntest:\n\tgo test ./...\n",
    old: "build:\n    go build ./...",
    new: "build:\n    go vet ./...\n    go build ./...",
    after: "all: build\n\nbuild:\n\tgo vet ./...\n\tgo build ./...\n\ntest:\n\tgo test ./...\n",
  },
  {
    what: "YAML: a list item added to a four-space list in a two-space file, copied with two",
    source: "YAML 1.2.2 spec 6.1 Indentation Spaces (any count, consistent per block); issue 37 part 3.2",
    file: "jobs:\n  build:\n    steps:\n        - run: make\n        - run: make test\n",
    old: "steps:\n  - run: make\n  - run: make test",
    new: "steps:\n  - run: make\n  - run: make test\n  - run: make lint",
    after: "jobs:\n  build:\n    steps:\n        - run: make\n        - run: make test\n        - run: make lint\n",
  },
  {
    what: "YAML: a nested key added keeps the file's own step",
    source: "YAML 1.2.2 spec 6.1; opencode packages/opencode/test/tool/edit.test.ts (indentation-flexible cases)",
    file: "a:\n   b: 1\n   c: 2\n",
    old: "a:\n  b: 1",
    new: "a:\n  b: 1\n  d:\n    e: 3",
    after: "a:\n   b: 1\n   d:\n      e: 3\n   c: 2\n",
  },
];

const PLACEHOLDERS: Case[] = [
  {
    what: "'// ... existing code ...' in place of a body",
    source: "aider aider/coders/base_prompts.py lazy_prompt; Cursor and Continue apply prompts' lazy markers",
    file: "function a() {\n  one();\n  two();\n}\n",
    old: "function a() {\n  one();\n  two();\n}",
    new: "function a() {\n  // ... existing code ...\n  three();\n}",
    after: "",
    refusedBy: "placeholder",
  },
  {
    what: "'# rest unchanged' under a changed line",
    source: "issue 37 part 1 (placeholders); Claude Code and opencode issue pastes of truncated new_string",
    file: "def f():\n    a = 1\n    b = 2\n    return a + b\n",
    old: "    a = 1\n    b = 2\n    return a + b",
    new: "    a = 10\n    # rest unchanged",
    after: "",
    refusedBy: "placeholder",
  },
  {
    what: "'// ...' alone",
    source: "issue 37 part 1 (placeholders)",
    file: "const x = {\n  a: 1,\n  b: 2,\n};\n",
    old: "const x = {\n  a: 1,\n  b: 2,\n};",
    new: "const x = {\n  a: 3,\n  // ...\n};",
    after: "",
    refusedBy: "placeholder",
  },
  {
    what: "a placeholder comment the file already has is the file's text, not one",
    source: "issue 37 part 1: refused only when not in old_string or the file",
    file: "x = 1\n# rest of the setup is in setup.py\ny = 2\n",
    old: "y = 2",
    new: "# rest of the setup is in setup.py\ny = 3",
    after: "x = 1\n# rest of the setup is in setup.py\n# rest of the setup is in setup.py\ny = 3\n",
  },
  {
    what: "Python's Ellipsis body is code, not a placeholder",
    source: "Python docs, typing stubs (PEP 484: '...' as a body)",
    file: "def f(): pass\n",
    old: "def f(): pass",
    new: "def f():\n    ...",
    after: "def f():\n    ...\n",
  },
  {
    what: "a comment that says 'unchanged' about the code is a comment",
    source: "issue 37: be general, refuse only what stands for missing code",
    file: "items.sort()\n",
    old: "items.sort()",
    new: "# keep the order unchanged for stable output\nitems.sort()",
    after: "# keep the order unchanged for stable output\nitems.sort()\n",
  },
  {
    what: "a comment about the existing connection is a comment",
    source: "issue 37: be general (main's placeholder rule refused any comment saying 'existing')",
    file: "conn = connect()\n",
    old: "conn = connect()",
    new: "# reuse the existing connection when there is one\nconn = pool.get() or connect()",
    after: "# reuse the existing connection when there is one\nconn = pool.get() or connect()\n",
  },
];

const TOKENS: Case[] = [
  {
    what: "a whitespace-blind match must not end before the line's last character",
    source: "aider tests/basic/test_editblock.py __test_replace_most_similar_chunk (the '.' the model left out)",
    file: "print('sample text.')\nprint('done')\n",
    old: "print('sample text\n",
    new: "print('replaced text.')\n",
    after: "",
    refusedBy: "edges",
  },
  {
    what: "a whitespace-blind match must start at a line's start when old_string does",
    source: "issue 37 part 1 (a half-merged line)",
    file: "result = compute(a) + compute(b)\nprint(result)\n",
    old: "\ncompute(b)\nprint(result)\n",
    new: "\ncompute(c)\nprint(result)\n",
    after: "",
    refusedBy: "edges",
  },
  {
    what: "block-anchor: lines the model misremembered and kept are the file's lines",
    source: "Cline's block-anchor fallback; opencode packages/opencode/src/tool/edit.ts BlockAnchorReplacer",
    file: "function save(user) {\n  validate(user);\n  db.write(user);\n  log('saved');\n}\n",
    old: "function save(user) {\n  validate(usr);\n  db.write(user);\n  log('saved');\n}",
    new: "function save(user) {\n  validate(usr);\n  db.write(user, { sync: true });\n  log('saved');\n}",
    after: "function save(user) {\n  validate(user);\n  db.write(user, { sync: true });\n  log('saved');\n}\n",
  },
  {
    what: "a small typo in old_string: new_string is written with the file's name",
    source: "issue 24 small-typo strategy (getUserNaem); Codex apply_patch fuzz",
    file: "const name = getUserName(id);\n",
    old: "const name = getUserNaem(id);",
    new: "const name = getUserNaem(id).trim();",
    after: "const name = getUserName(id).trim();\n",
  },
  {
    what: "escapes written out: the file gets the real characters, token for token",
    source: "gemini-cli editCorrector unescapeStringForGeminiBug",
    file: 'const a = "x";\nconst b = 1;\n',
    old: 'const a = \\"x\\";\\nconst b = 1;',
    new: 'const a = \\"y\\";\\nconst b = 2;',
    after: 'const a = "y";\nconst b = 2;\n',
  },
];

const TABLES: [string, Case[]][] = [
  ["the issue's six shapes (five here; the diff-marker one is in edit-syntax.test.ts)", SHAPES],
  ["indentation: the file's at the place plus the model's relative", INDENT],
  ["placeholders", PLACEHOLDERS],
  ["the model's text, token for token", TOKENS],
];

for (const [title, cases] of TABLES) {
  describe(title, () => {
    it.each(cases.map((c) => [c.what, c] as const))("%s", (_w, c) => check(c));
  });
}

/**
 * What a strategy with a bug would write, as a splice: the check must catch it whatever matched.
 * These are the wrong shapes the cascade wrote before (issue 24's tables, first rows).
 */
const STRATEGY_BUGS: {
  what: string;
  source: string;
  file: string;
  start: string;
  end: string;
  text: string;
  old: string;
  new: string;
  caught: "tokens" | "kept";
}[] = [
  {
    what: "an anchor closing on a nested block's }: a } more than new_string has",
    source: "issue 24 wrong shape 1 (opencode BlockAnchorReplacer matches first and last lines only)",
    file: "function save(user) {\n  if (!user.id) {\n    throw new Error('no id');\n  }\n  db.write(user);\n}\n",
    start: "function save",
    end: "  }\n",
    text: "function save(user) {\n  if (!user?.id) {\n    throw new Error('no id');\n  }\n}\n",
    old: "function save(user) {\n  if (!user.id) {\n    throw new Error('no id');\n  }\n}",
    new: "function save(user) {\n  if (!user?.id) {\n    throw new Error('no id');\n  }\n}",
    caught: "tokens",
  },
  {
    what: "untouched lines written with the model's indentation",
    source: "issue 24 wrong shape 3; aider test_replace_part_with_just_some_missing_leading_whitespace",
    file: "def f(a):\n    total = 0\n    if a:\n        total += a\n    return total\n",
    start: "    total = 0",
    end: "total += a",
    text: "      total = 0\n    if a:\n        total += a * 2",
    old: "      total = 0\n    if a:\n        total += a",
    new: "      total = 0\n    if a:\n        total += a * 2",
    caught: "kept",
  },
  {
    what: "a token dropped from new_string",
    source: "issue 37 part 1 (a token the model did not write, or did and lost)",
    file: "call(a, b)\n",
    start: "call",
    end: "b)",
    text: "call(a)",
    old: "call(a, b)",
    new: "call(a, c)",
    caught: "tokens",
  },
];

describe("a wrong splice from any strategy is caught", () => {
  it.each(STRATEGY_BUGS.map((c) => [c.what, c] as const))("%s", (_w, c) => {
    const start = c.file.indexOf(c.start);
    const end = c.file.indexOf(c.end, start) + c.end.length;
    const why = verifySplice(c.file, { start, end, text: c.text }, { old: c.old, new: c.new });
    expect(why).toContain(CHECKS[c.caught]);
    // The splice that writes what was meant passes.
    expect(verifySplice(c.file, { start, end, text: c.file.slice(start, end) }, { old: c.old, new: c.old })).toBe(
      undefined,
    );
  });
});

describe("the count of table cases each check refuses", () => {
  it("is what the closing note reports", () => {
    const all = TABLES.flatMap(([, cs]) => cs);
    const count = (k: keyof typeof CHECKS) => all.filter((c) => c.refusedBy === k).length;
    const bugs = (k: string) => STRATEGY_BUGS.filter((c) => c.caught === k).length;
    expect({
      edges: count("edges"),
      placeholder: count("placeholder"),
      tokens: bugs("tokens"),
      kept: bugs("kept"),
    }).toEqual({ edges: 3, placeholder: 4, tokens: 2, kept: 1 });
  });
});
