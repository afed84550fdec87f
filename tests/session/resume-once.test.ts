// A `--resume` launch reads its session once (issue 27: a 5,000-message session resumes to its
// last screen within 300 ms): bin's boot frame reads and lays it out, and main's model and the
// resume itself go on with that, unless the file changed meanwhile. Counted, not timed.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { ConversationMessage } from "../../src/protocol/conversation.js";
import { peekSession } from "../../src/session/peek.js";
import { resumeSession } from "../../src/session/resume.js";
import { SessionWriter } from "../../src/session/writer.js";
import { init } from "../../src/ui/update/init.js";
import { feed, testConfig } from "../ui/helpers.js";

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "agent0-resume-once-"));
});
afterEach(() => {
  vi.restoreAllMocks();
  fs.rmSync(dir, { recursive: true, force: true });
});

function savedSession(messages: number): SessionWriter {
  const writer = SessionWriter.create(dir, { cwd: "/project", provider: "ollama", model: "qwen3:8b" });
  for (let i = 0; i < messages; i++) {
    const message: ConversationMessage =
      i % 2 === 0 ? { role: "user", content: `question ${i}` } : { role: "assistant", content: `answer ${i}` };
    writer.append(message);
  }
  return writer;
}

/** Reads of `file` while `fn` runs. */
function readsOf<T>(file: string, fn: () => T): { result: T; reads: number } {
  const spy = vi.spyOn(fs, "readFileSync");
  try {
    const result = fn();
    return { result, reads: spy.mock.calls.filter(([f]) => f === file).length };
  } finally {
    spy.mockRestore();
  }
}

const bootModel = (conversation: ConversationMessage[], builtFrom?: ReturnType<typeof init>) =>
  init({ width: 80, height: 24, now: 0, config: testConfig(), sessionId: "", booted: false, conversation, builtFrom });

describe("a resumed launch reads its session once", () => {
  it("the resume takes the file as the first frame read it; each read once", () => {
    const writer = savedSession(40);
    writer.close();
    const id = writer.id.slice(0, 8);
    const first = readsOf(writer.path, () => peekSession({ resume: id }, dir, "/project"));
    expect(first.reads).toBe(1);
    const peeked = first.result!;
    // main's boot frame (same flags) and the resume: no read of their own.
    const again = readsOf(writer.path, () => peekSession({ resume: id }, dir, "/project", peeked.read));
    expect(again.reads).toBe(0);
    expect(again.result!.conversation).toBe(peeked.conversation);
    const resumed = readsOf(writer.path, () => resumeSession(dir, id, {}, peeked.read));
    expect(resumed.reads).toBe(0);
    expect(resumed.result.ok && resumed.result.session.conversation).toBe(peeked.conversation);
    if (resumed.result.ok) resumed.result.session.lock?.release();
  });

  it("a file that changed since is read again", () => {
    const writer = savedSession(4);
    const peeked = peekSession({ resume: writer.id }, dir, "/project")!;
    writer.append({ role: "user", content: "written after the first frame" });
    writer.close();
    const resumed = readsOf(writer.path, () => resumeSession(dir, writer.id, {}, peeked.read));
    expect(resumed.reads).toBe(1);
    expect(resumed.result.ok && resumed.result.session.conversation.at(-1)?.content).toBe(
      "written after the first frame",
    );
    if (resumed.result.ok) resumed.result.session.lock?.release();
  });
});

describe("a resumed launch builds its transcript once", () => {
  const conversation: ConversationMessage[] = Array.from({ length: 20 }, (_, i) =>
    i % 2 === 0 ? { role: "user", content: `q${i}` } : { role: "assistant", content: `a${i}` },
  );

  it("main's model takes the boot frame's entries when they show the same messages", () => {
    const early = bootModel(conversation);
    const main = bootModel(conversation, early);
    expect(main.entries.slice(1)).toEqual(early.entries.slice(1));
    main.entries.slice(1).forEach((entry, i) => expect(entry).toBe(early.entries[i + 1]));
    expect(main.nextId).toBe(early.nextId);
    // Other messages (a session changed in between): built anew.
    const other = bootModel([...conversation.slice(0, 4), { role: "user", content: "new" }], early);
    expect(other.entries.at(-1)).toMatchObject({ kind: "user", text: "new" });
  });

  it("the boot's end keeps that transcript and shows the config it brings in the welcome", () => {
    const start = bootModel(conversation);
    const { model } = feed(start, {
      type: "boot-ready",
      config: testConfig({ model: "llama3:70b" }),
      sessionId: "s",
      conversation,
      skills: [],
      warnings: [],
    });
    expect(model.entries[0]).toMatchObject({ kind: "welcome", model: "llama3:70b", id: start.entries[0]!.id });
    model.entries.slice(1).forEach((entry, i) => expect(entry).toBe(start.entries[i + 1]));
    // Once booted, opening a conversation lays it out again (it may hold notices of the old one).
    const { model: reopened } = feed(model, {
      type: "boot-ready",
      config: testConfig(),
      sessionId: "s",
      conversation,
      skills: [],
      warnings: [],
    });
    expect(reopened.entries[1]).not.toBe(start.entries[1]);
    expect(reopened.entries[1]).toMatchObject({ kind: "user", text: "q0" });
  });
});
