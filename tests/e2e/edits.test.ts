// Issue 13 checks 3 and 4 end to end (headless, fake Ollama, --yolo): near-miss edits land in the
// right place, ambiguous ones are refused with the candidates, a Latin-1 file keeps every other
// byte, a CRLF file stays CRLF, and write_file needs a read of the file it overwrites.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { startFakeOllama, type FakeOllama, type RecordedChat, type Reply } from "../fakes/ollama-server.js";
import { runHeadless, type Sandbox, eachTest } from "./harness.js";

const MODEL = { name: "qwen2.5-coder:7b", contextLength: 32768 };
type Call = { name: string; arguments: Record<string, unknown> };

/** The model makes these calls one step each, then answers. */
function script(calls: Call[], before?: (done: number) => void): (req: RecordedChat) => Reply {
  return (req) => {
    const done = req.messages.filter((m) => m.role === "tool").length;
    before?.(done);
    return done < calls.length ? { steps: [{ toolCalls: [calls[done]!] }] } : { steps: [{ text: "done" }] };
  };
}

const PY = "class Greeter:\n    def greet(self, name):\n        message = 'Hello, ' + name\n        return message\n";

describe("edits end to end", () => {
  let sb: Sandbox;
  let fake: FakeOllama | undefined;
  eachTest(
    (s) => (sb = s),
    () => [fake],
  );
  const file = (f: string) => path.join(sb.project, f);

  async function run(calls: Call[]): Promise<string[]> {
    fake = await startFakeOllama({ models: [MODEL], replies: script(calls) });
    const r = await runHeadless(sb, ["-p", "edit", "--host", fake.url, "--model", MODEL.name, "--yolo"], 40_000);
    expect(r.code).toBe(0);
    return fake.chats
      .at(-1)!
      .messages.filter((m) => m.role === "tool")
      .map((m) => String(m.content));
  }

  it("applies near-misses of each kind to the right place and refuses an ambiguous one", async () => {
    fs.writeFileSync(file("g.py"), PY);
    fs.writeFileSync(file("twice.txt"), "x = 1\ny = 2\nx = 1\n");
    const results = await run([
      // indentation lost
      {
        name: "edit_file",
        arguments: {
          path: "g.py",
          old_string: "def greet(self, name):\n    message = 'Hello, ' + name",
          new_string: "def greet(self, name):\n    message = 'Hi, ' + name",
        },
      },
      // line numbers copied from read_file
      {
        name: "edit_file",
        arguments: {
          path: "g.py",
          old_string: "     4\t        return message",
          new_string: "     4\t        return message.strip()",
        },
      },
      // trailing whitespace
      {
        name: "edit_file",
        arguments: {
          path: "g.py",
          old_string: "    def greet(self, name):   ",
          new_string: "    def greet(self, name: str):",
        },
      },
      // ambiguous
      { name: "edit_file", arguments: { path: "twice.txt", old_string: "x = 1", new_string: "x = 3" } },
    ]);
    expect(fs.readFileSync(file("g.py"), "utf8")).toBe(
      "class Greeter:\n    def greet(self, name: str):\n        message = 'Hi, ' + name\n        return message.strip()\n",
    );
    expect(results[0]).toContain("matched by: indentation-flexible");
    expect(results[1]).toContain("matched by: line-numbers-stripped");
    expect(results[2]).toContain("matched by: line-trimmed");
    expect(results[3]).toBe(
      "Error: old_string in twice.txt matches 2 places (lines 1, 3). Add surrounding lines to make it unique, or set replace_all to true.",
    );
    expect(fs.readFileSync(file("twice.txt"), "utf8")).toBe("x = 1\ny = 2\nx = 1\n");
  });

  it("keeps a Latin-1 file's other bytes and a CRLF file's line ends", async () => {
    const latin1 = Buffer.from("nom = 'café'\nprix = 3\n", "latin1");
    fs.writeFileSync(file("l.py"), latin1);
    fs.writeFileSync(file("w.txt"), "one\r\ntwo\r\nthree\r\n");
    await run([
      { name: "edit_file", arguments: { path: "l.py", old_string: "prix = 3", new_string: "prix = 4" } },
      { name: "edit_file", arguments: { path: "w.txt", old_string: "two\n", new_string: "2\n2.5\n" } },
    ]);
    expect(fs.readFileSync(file("l.py"))).toEqual(Buffer.from("nom = 'café'\nprix = 4\n", "latin1"));
    expect(fs.readFileSync(file("w.txt"), "utf8")).toBe("one\r\n2\r\n2.5\r\nthree\r\n");
  });

  it("write_file: refused before a read, works after it, refused after an outside change", async () => {
    fs.writeFileSync(file("a.txt"), "original\n");
    const calls: Call[] = [
      { name: "write_file", arguments: { path: "a.txt", content: "first\n" } },
      { name: "read_file", arguments: { path: "a.txt" } },
      { name: "write_file", arguments: { path: "a.txt", content: "second\n" } },
      { name: "read_file", arguments: { path: "a.txt" } },
      { name: "write_file", arguments: { path: "a.txt", content: "third\n" } },
    ];
    // The user changes the file between the model's read and its last write.
    const userEdits = (done: number) => done === 4 && fs.writeFileSync(file("a.txt"), "the user's edit\n");
    fake = await startFakeOllama({ models: [MODEL], replies: script(calls, userEdits) });
    const r = await runHeadless(sb, ["-p", "edit", "--host", fake.url, "--model", MODEL.name, "--yolo"], 40_000);
    expect(r.code).toBe(0);
    const results = fake.chats
      .at(-1)!
      .messages.filter((m) => m.role === "tool")
      .map((m) => String(m.content));
    expect(results[0]).toMatch(/^Error: a\.txt exists and you have not read it in this session/);
    expect(results[2]).toBe("Wrote a.txt (1 line).");
    expect(results[4]).toBe("Error: a.txt changed since you read it; read it again (read_file) before changing it.");
    expect(fs.readFileSync(file("a.txt"), "utf8")).toBe("the user's edit\n");
  });

  it("an exact edit that breaks Python is written and says where; a near-miss that would is refused", async () => {
    // Issue 37 check 3: the file's own syntax (tree-sitter, loaded on this first edit).
    fs.writeFileSync(file("exact.py"), PY);
    fs.writeFileSync(file("near.py"), PY);
    const results = await run([
      {
        name: "edit_file",
        arguments: {
          path: "exact.py",
          old_string: "        return message\n",
          new_string: "        return message +\n",
        },
      },
      {
        name: "edit_file",
        arguments: {
          path: "near.py",
          old_string: "def greet(self, name):\n    message = 'Hello, ' + name",
          new_string: "def greet(self, name)\n    message = 'Hello, ' + name",
        },
      },
    ]);
    expect(fs.readFileSync(file("exact.py"), "utf8")).toBe(PY.replace("return message\n", "return message +\n"));
    expect(results[0]).toMatch(
      /exact\.py no longer parses \(tree-sitter \(python\)\): line 4: " {8}return message \+"/,
    );
    expect(fs.readFileSync(file("near.py"))).toEqual(Buffer.from(PY));
    expect(results[1]).toContain("the edit was not applied: near.py parses now");
    expect(results[1]).toMatch(/line 2, "\s*def greet\(self, name\)"/);
  });
});
