import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ConversationMessage } from "../../src/protocol/conversation.js";
import { damageReport, loadSession, SessionWriter } from "../../src/session/writer.js";

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "agent0-session-"));
});
afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

const fields = { cwd: "/home/ada/project", provider: "ollama", model: "qwen3:8b" };
const noSecrets = { env: {} };

const everyKind: ConversationMessage[] = [
  { role: "user", content: "Add a --verbose flag to the CLI" },
  {
    role: "assistant",
    content: "I'll read the argument parser first.",
    thinking: "The flag parsing lives in src/args.ts, probably.",
    toolCalls: [
      { id: "call_1", name: "read", args: { path: "src/args.ts" } },
      {
        id: "call_2",
        name: "grep",
        args: { pattern: "verbose", options: { ignoreCase: true, paths: ["src", "tests"] } },
      },
    ],
  },
  {
    role: "tool",
    toolCallId: "call_1",
    toolName: "read",
    content: 'export function parse(argv: string[]) {\n  // "quoted" \\ back\n}',
  },
  { role: "tool", toolCallId: "call_2", toolName: "grep", content: "no matches" },
  { role: "assistant", content: "Here is the change: 漢字 🎉 and a half-finished sent", interrupted: true },
  { role: "user", content: "Review the staged diff for bugs...", typed: "/review" },
];

function writeSession(messages: ConversationMessage[]): SessionWriter {
  const writer = SessionWriter.create(dir, fields, noSecrets);
  for (const m of messages) writer.append(m);
  writer.close();
  return writer;
}

function loaded(file: string) {
  const result = loadSession(file);
  if (!result.ok) throw new Error(result.error);
  return result;
}

describe("saving and loading a session", () => {
  it("gives back every kind of message exactly as it was saved", () => {
    const writer = writeSession(everyKind);
    const result = loaded(writer.path);
    expect(result.messages).toEqual(everyKind);
    expect(result.damaged).toEqual([]);
    expect(result.header).toMatchObject({ type: "session", version: 1, id: writer.id, ...fields, title: "" });
  });

  it("names the file <uuid>.jsonl in the sessions folder and starts with the header line", () => {
    const writer = writeSession([]);
    expect(writer.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(writer.path).toBe(path.join(dir, `${writer.id}.jsonl`));
    const [first, ...rest] = fs.readFileSync(writer.path, "utf8").split("\n");
    expect(JSON.parse(first!)).toMatchObject({ type: "session", version: 1, id: writer.id, cwd: fields.cwd });
    expect(rest).toEqual([""]);
  });

  it("writes one line per message, each complete on disk when append returns", () => {
    const writer = SessionWriter.create(dir, fields, noSecrets);
    writer.append(everyKind[0]!);
    writer.append(everyKind[1]!);
    // Read while the writer is still open: nothing is held back in a buffer.
    const lines = fs.readFileSync(writer.path, "utf8").trimEnd().split("\n");
    expect(lines).toHaveLength(3);
    expect(JSON.parse(lines[2]!)).toMatchObject({ type: "message", message: everyKind[1] });
    writer.close();
  });

  it("takes the title from the first prompt as typed when none was set", () => {
    const writer = writeSession([{ role: "user", content: "expanded skill text", typed: "/review   the\nparser" }]);
    expect(loaded(writer.path).meta.title).toBe("/review the parser");
  });

  it("applies meta lines: the latest model, title and permission mode win", () => {
    const writer = SessionWriter.create(dir, { ...fields, title: "first" }, noSecrets);
    writer.meta({ model: "llama3.1:8b" });
    writer.meta({ title: "Verbose flag", permissionMode: "auto-edit" });
    writer.meta({ model: "qwen3:14b" });
    writer.close();
    expect(loaded(writer.path).meta).toEqual({
      model: "qwen3:14b",
      provider: "ollama",
      title: "Verbose flag",
      permissionMode: "auto-edit",
    });
  });

  it("replays reset lines: the conversation is what the last reset said, plus what came after", () => {
    const writer = SessionWriter.create(dir, fields, noSecrets);
    for (const m of everyKind) writer.append(m);
    const summary: ConversationMessage = { role: "user", content: "Summary of the work so far" };
    writer.reset([summary]);
    writer.append({ role: "assistant", content: "Continuing." });
    writer.reset([]); // /clear
    writer.append({ role: "user", content: "fresh start" });
    writer.close();
    expect(loaded(writer.path).messages).toEqual([{ role: "user", content: "fresh start" }]);
  });
});

describe("damaged session files", () => {
  it("loads every complete message before a last line cut off midway, and names that line", () => {
    const writer = writeSession(everyKind.slice(0, 3));
    const line = JSON.stringify({ type: "message", at: new Date().toISOString(), message: everyKind[3] });
    fs.appendFileSync(writer.path, line.slice(0, line.length / 2));
    const result = loaded(writer.path);
    expect(result.messages).toEqual(everyKind.slice(0, 3));
    expect(result.damaged).toEqual([5]);
  });

  it("skips an unreadable line in the middle and reports its line number", () => {
    const writer = writeSession(everyKind.slice(0, 1));
    fs.appendFileSync(writer.path, '{"type":"message","at":"x","message":{"role":"wizard"}}\nnot json at all\n');
    fs.appendFileSync(writer.path, JSON.stringify({ type: "message", at: "t", message: everyKind[1] }) + "\n");
    const result = loaded(writer.path);
    expect(result.messages).toEqual(everyKind.slice(0, 2));
    expect(result.damaged).toEqual([3, 4]);
    expect(damageReport(writer.id, result.damaged)).toBe(
      `2 damaged lines skipped in session ${writer.id.slice(0, 8)}: lines 3, 4 (the file is left as it is).`,
    );
  });

  it("refuses a file whose header does not parse, naming it", () => {
    const file = path.join(dir, "broken.jsonl");
    fs.writeFileSync(file, '{"type":"sess\n{"type":"message"}\n');
    expect(loadSession(file)).toEqual({
      ok: false,
      error: `${file}: not a readable agent0 session (header does not parse)`,
    });
  });

  it("refuses a file of an unknown version", () => {
    const file = path.join(dir, "future.jsonl");
    fs.writeFileSync(
      file,
      JSON.stringify({
        type: "session",
        version: 2,
        id: "future",
        created: "",
        cwd: "/",
        provider: "ollama",
        model: "m",
        title: "",
      }) + "\n",
    );
    expect(loadSession(file)).toEqual({
      ok: false,
      error: `${file}: not a readable agent0 session (unknown version 2)`,
    });
  });

  it("refuses an empty file and a missing one without throwing", () => {
    const empty = path.join(dir, "empty.jsonl");
    fs.writeFileSync(empty, "");
    expect(loadSession(empty)).toEqual({
      ok: false,
      error: `${empty}: not a readable agent0 session (header does not parse)`,
    });
    const missing = loadSession(path.join(dir, "missing.jsonl"));
    expect(missing.ok).toBe(false);
  });
});

describe("resuming: appending to an existing session", () => {
  it("appends after the earlier messages", () => {
    const first = writeSession(everyKind.slice(0, 2));
    const again = SessionWriter.open(dir, first.id, noSecrets);
    expect(again.id).toBe(first.id);
    again.append(everyKind[2]!);
    again.close();
    expect(loaded(first.path).messages).toEqual(everyKind.slice(0, 3));
  });

  it("does not glue the next line to a torn one", () => {
    const first = writeSession(everyKind.slice(0, 1));
    fs.appendFileSync(first.path, '{"type":"message","at":"2025-01-01T00:00:00.000Z","mess');
    const again = SessionWriter.open(dir, first.id, noSecrets);
    again.append(everyKind[1]!);
    again.close();
    const result = loaded(first.path);
    expect(result.messages).toEqual(everyKind.slice(0, 2));
    expect(result.damaged).toEqual([3]);
  });

  it("refuses a corrupt or unknown-version file and leaves its bytes alone", () => {
    const corrupt = path.join(dir, "bad.jsonl");
    fs.writeFileSync(corrupt, "garbage\n");
    expect(() => SessionWriter.open(dir, "bad", noSecrets)).toThrow(
      `${corrupt}: not a readable agent0 session (header does not parse)`,
    );
    expect(fs.readFileSync(corrupt, "utf8")).toBe("garbage\n");

    const future = path.join(dir, "future.jsonl");
    const text =
      JSON.stringify({
        type: "session",
        version: 9,
        id: "future",
        created: "",
        cwd: "/",
        provider: "p",
        model: "m",
        title: "",
      }) + "\n";
    fs.writeFileSync(future, text);
    expect(() => SessionWriter.open(dir, "future", noSecrets)).toThrow("unknown version 9");
    expect(fs.readFileSync(future, "utf8")).toBe(text);
  });

  it("never creates over an existing session file", () => {
    const first = writeSession(everyKind.slice(0, 1));
    const before = fs.readFileSync(first.path, "utf8");
    expect(() => SessionWriter.create(dir, { ...fields, id: first.id }, noSecrets)).toThrow();
    expect(fs.readFileSync(first.path, "utf8")).toBe(before);
  });

  it("throws once closed instead of writing", () => {
    const writer = writeSession([]);
    expect(() => writer.append(everyKind[0]!)).toThrow(`Session ${writer.id} is closed`);
  });
});

describe("secrets", () => {
  const env = {
    OPENAI_API_KEY: "sk-live-abcdef123456",
    GITHUB_TOKEN: 'ghp_"quoted\\value',
    SHORT_KEY: "abc",
    HOME: "/home/ada",
  };

  it("masks secret env values everywhere in the file, keeping it loadable", () => {
    const writer = SessionWriter.create(dir, fields, { env });
    writer.append({ role: "user", content: "my key is sk-live-abcdef123456, ok?" });
    writer.append({
      role: "assistant",
      content: "",
      toolCalls: [
        {
          id: "c",
          name: "bash",
          args: { command: 'curl -H "Authorization: ghp_\\"quoted\\\\value" x', sk: ["sk-live-abcdef123456"] },
        },
      ],
    });
    writer.append({ role: "tool", toolCallId: "c", content: 'token ghp_"quoted\\value' });
    writer.close();
    const text = fs.readFileSync(writer.path, "utf8");
    expect(text).not.toContain("sk-live-abcdef123456");
    expect(text).not.toContain(JSON.stringify(env.GITHUB_TOKEN).slice(1, -1));
    const result = loaded(writer.path);
    expect(result.messages[0]!.content).toBe("my key is ****, ok?");
    expect(result.messages[2]!.content).toBe("token ****");
  });

  it("leaves short values and other variables alone", () => {
    const writer = SessionWriter.create(dir, fields, { env });
    writer.append({ role: "user", content: "abc in /home/ada" });
    writer.close();
    expect(loaded(writer.path).messages[0]!.content).toBe("abc in /home/ada");
  });
});

describe("images a tool returned", () => {
  const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";
  const result = (data: string): ConversationMessage => ({
    role: "tool",
    toolCallId: "c1",
    toolName: "mcp__demo__shot",
    content: "[image: image/png, 70 bytes]",
    display: { label: "demo.shot {}", ok: true, summary: "1 line", output: "[image: image/png, 70 bytes]" },
    images: [{ mimeType: "image/png", data }],
  });

  it("are saved once, as base64 in the message, and come back on resume", () => {
    const writer = writeSession([everyKind[0]!, result(PNG)]);
    const text = fs.readFileSync(writer.path, "utf8");
    expect(text.split(PNG).length - 1).toBe(1);
    expect(loaded(writer.path).messages[1]!.images).toEqual([{ mimeType: "image/png", data: PNG }]);
  });

  it("stay whole when a run of their base64 spells a piece of a secret (masking would break them)", () => {
    const env = { OPENAI_API_KEY: "sk-live-abcdef123456" };
    // The key in base64, at a 4-character boundary of the image's base64.
    const data = `iVBORw0KGgoA${Buffer.from(env.OPENAI_API_KEY).toString("base64").replace(/=+$/, "")}AAAA`;
    const writer = SessionWriter.create(dir, fields, { env });
    writer.append({ role: "user", content: "my key is sk-live-abcdef123456" });
    writer.append(result(data));
    writer.close();
    const back = loaded(writer.path).messages;
    expect(back[0]!.content).toBe("my key is ****");
    expect(back[1]!.images).toEqual([{ mimeType: "image/png", data }]);
  });

  it("a damaged image is dropped on load; its message and description stay", () => {
    const writer = writeSession([everyKind[0]!]);
    const line = { type: "message", at: new Date().toISOString(), message: result("iVBOR****w0KGgo") };
    fs.appendFileSync(writer.path, `${JSON.stringify(line)}\n`);
    const back = loaded(writer.path);
    expect(back.damaged).toEqual([]);
    expect(back.messages[1]!.content).toBe("[image: image/png, 70 bytes]");
    expect(back.messages[1]!.images).toBeUndefined();
  });
});
