import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { AgentEvent } from "../../src/protocol/agent-event.js";
import type { ConversationMessage } from "../../src/protocol/conversation.js";
import { loadSession } from "../../src/session/load.js";
import { SessionRecorder, type SaveState } from "../../src/session/recorder.js";
import { resumeSession } from "../../src/session/resume.js";

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "agent0-recorder-"));
});
afterEach(() => {
  vi.restoreAllMocks();
  fs.rmSync(dir, { recursive: true, force: true });
});

const fields = () => ({ cwd: "/home/ada/project", provider: "ollama", model: "qwen3:8b" });
const ev = (e: Record<string, unknown>) => ({ runId: 1, ...e }) as AgentEvent;
const user = (content: string): ConversationMessage => ({ role: "user", content });
const answer = (content: string): ConversationMessage => ({ role: "assistant", content });

function recorder(over: Partial<ConstructorParameters<typeof SessionRecorder>[0]> = {}) {
  const states: SaveState[] = [];
  const r = new SessionRecorder({ dir, fields, env: {}, onSaveState: (s) => states.push(s), ...over });
  return { r, states };
}

function loaded(file: string) {
  const result = loadSession(file);
  if (!result.ok) throw new Error(result.error);
  return result;
}

const enospc = () => Object.assign(new Error("ENOSPC: no space left on device, write"), { code: "ENOSPC" });

describe("the session recorder", () => {
  it("saves a turn from messages and agent events; nothing is made before the first message", () => {
    const { r } = recorder();
    r.event(ev({ type: "model-info", model: "qwen3:8b", contextLength: 40960, numCtx: 32768, capabilities: [] }));
    expect(fs.existsSync(r.path)).toBe(false);
    r.append(user("hello"));
    r.event(ev({ type: "text", delta: "Hi " }));
    r.event(ev({ type: "message", message: answer("Hi there.") }));
    r.event(ev({ type: "done", reason: "complete" }));
    const s = loaded(r.path);
    expect(s.messages).toEqual([user("hello"), answer("Hi there.")]);
    expect(s.meta.title).toBe("hello");
    expect(r.close()).toEqual({
      kind: "saved",
      id: r.id,
      text: `Session ${r.id} saved — resume with: agent0 --resume ${r.id}`,
    });
  });

  it("saves a streaming answer as partial lines (each only the new text); the final message supersedes them", async () => {
    const { r } = recorder({ partialChars: 40, partialMs: 30 });
    r.append(user("tell me"));
    const words = Array.from({ length: 30 }, (_, i) => `word${i} `);
    const sizes: number[] = [];
    for (const w of words) {
      r.event(ev({ type: "text", delta: w }));
      sizes.push(fs.statSync(r.path).size);
    }
    const before = fs.readFileSync(r.path);
    const partials = before
      .toString("utf8")
      .split("\n")
      .filter((l) => l.startsWith('{"type":"partial"'));
    expect(partials.length).toBeGreaterThan(3);
    // O(1) per line: each holds only what arrived since the previous one.
    for (const p of partials) expect((JSON.parse(p) as { text: string }).text.length).toBeLessThan(60);
    // After a crash here, the answer so far loads, marked interrupted.
    const crashed = loaded(r.path);
    expect(crashed.cutOff).toBe(true);
    expect(crashed.messages.at(-1)).toMatchObject({ role: "assistant", interrupted: true });
    expect(words.join("").startsWith(crashed.messages.at(-1)!.content)).toBe(true);
    expect(crashed.messages.at(-1)!.content.length).toBeGreaterThan(100);
    // The timer saves what is left after a pause in the stream.
    r.event(ev({ type: "text", delta: "tail " }));
    await vi.waitFor(() => expect(loaded(r.path).messages.at(-1)!.content).toBe(words.join("") + "tail "), {
      timeout: 5000,
    });
    r.event(ev({ type: "message", message: answer("The final answer.") }));
    r.close();
    const after = fs.readFileSync(r.path);
    // Appended only: the file before is a prefix of the file after.
    expect(after.subarray(0, before.length).equals(before)).toBe(true);
    const done = loaded(r.path);
    expect(done.cutOff).toBe(false);
    expect(done.messages).toEqual([user("tell me"), answer("The final answer.")]);
  });

  it("never splits a secret across partial lines, so the writer can mask it", async () => {
    const secret = "sk-live-abcdef123456";
    const { r } = recorder({ env: { OPENAI_API_KEY: secret }, partialChars: 8, partialMs: 20 });
    r.append(user("show the key"));
    const text = `the key is ${secret} and more words follow here `;
    for (let i = 0; i < text.length; i += 3) r.event(ev({ type: "text", delta: text.slice(i, i + 3) }));
    // The timer saves the rest: once the file holds the whole text, no line may hold a piece of the key.
    await vi.waitFor(
      () => expect(loaded(r.path).messages.at(-1)!.content.endsWith(" and more words follow here ")).toBe(true),
      {
        timeout: 5000,
      },
    );
    const file = fs.readFileSync(r.path, "utf8");
    expect(file).not.toContain("abcdef");
    expect(file).not.toContain("123456");
    expect(loaded(r.path).messages.at(-1)!.content.startsWith("the key is ")).toBe(true);
    r.close();
  });

  it("a full disk: reported once, nothing lost, the waiting lines written when writing works again", () => {
    const { r, states } = recorder();
    r.append(user("first"));
    r.append(answer("first answer"));
    const real = fs.writeSync;
    let full = true;
    let torn = false;
    vi.spyOn(fs, "writeSync").mockImplementation(((fd: number, buffer: Buffer, offset?: number) => {
      if (!full) return real(fd, buffer, offset);
      // A full disk takes part of a line, then refuses the rest.
      if (!torn) {
        torn = true;
        return real(fd, buffer, offset, Math.floor((buffer.length - (offset ?? 0)) / 2));
      }
      throw enospc();
    }) as typeof fs.writeSync);
    r.append(user("second"));
    r.event(ev({ type: "text", delta: "half of " }));
    r.append(answer("second answer"));
    r.append(user("third"));
    expect(states).toEqual([
      {
        saved: false,
        reason: "the disk is full (ENOSPC)",
        text: "Could not save the session: the disk is full (ENOSPC) — the conversation continues in memory; nothing is lost while agent0 stays open.",
      },
    ]);
    expect(r.saving.saved).toBe(false);
    // The torn bytes were taken back: what is on disk still loads cleanly.
    expect(loaded(r.path).damaged).toEqual([]);
    full = false;
    r.append(answer("third answer"));
    expect(states.at(-1)).toEqual({
      saved: true,
      text: "The session is saved again: 4 messages that waited were written.",
    });
    const s = loaded(r.path);
    expect(s.damaged).toEqual([]);
    expect(s.messages.map((m) => m.content)).toEqual([
      "first",
      "first answer",
      "second",
      "second answer",
      "third",
      "third answer",
    ]);
    expect(r.close().kind).toBe("saved");
  });

  it("quitting while the disk is still full says so and names a complete emergency copy", () => {
    const { r } = recorder();
    r.append(user("keep me"));
    vi.spyOn(fs, "writeSync").mockImplementation(() => {
      throw enospc();
    });
    r.append(answer("and me"));
    vi.restoreAllMocks();
    // Still full for the session folder only (the temp folder is elsewhere).
    const real = fs.writeSync;
    vi.spyOn(fs, "writeSync").mockImplementation(((fd: number, ...rest: unknown[]) => {
      if (fs.readlinkSync(`/proc/self/fd/${fd}`).startsWith(dir)) throw enospc();
      return (real as (...a: unknown[]) => number)(fd, ...rest);
    }) as typeof fs.writeSync);
    const report = r.close();
    vi.restoreAllMocks();
    expect(report.kind).toBe("unsaved");
    if (report.kind !== "unsaved") return;
    try {
      expect(report.text).toContain(`Session ${r.id.slice(0, 8)} was NOT fully saved (the disk is full (ENOSPC))`);
      expect(report.emergencyPath).toBeDefined();
      expect(path.dirname(report.emergencyPath!)).toBe(os.tmpdir());
      expect(report.text).toContain(report.emergencyPath!);
      expect(loaded(report.emergencyPath!).messages).toEqual([user("keep me"), answer("and me")]);
    } finally {
      fs.rmSync(report.emergencyPath!, { force: true });
    }
  });
});

describe("resuming through the recorder", () => {
  it("a cut-off answer is shown interrupted, said so, and saved as a message that supersedes its partial lines", () => {
    const first = recorder({ partialChars: 10 }).r;
    first.append(user("story"));
    for (const w of ["once ", "upon ", "a ", "time ", "there "]) first.event(ev({ type: "text", delta: w }));
    // The app is killed here: no close, no final message. Its lock is left behind, pid and all.
    const resumed = resumeSession(dir, first.id.slice(0, 8), {});
    expect(resumed.ok).toBe(true);
    if (!resumed.ok) return;
    // This process still holds that lock: a lock of one's own process is one's own, not a fork.
    expect(resumed.session.id).toBe(first.id);
    expect(resumed.notices).toContain(
      "The last answer was cut off when agent0 stopped; what had arrived is shown, marked interrupted.",
    );
    const cut = resumed.session.conversation.at(-1)!;
    expect(cut).toMatchObject({ role: "assistant", interrupted: true });
    expect(cut.content.startsWith("once upon a time")).toBe(true);
    const second = recorder().r;
    second.adopt(resumed.session);
    second.append(user("go on"));
    second.close();
    const s = loaded(first.path);
    expect(s.cutOff).toBe(false);
    expect(s.messages).toEqual([user("story"), cut, user("go on")]);
  });

  it("a garbage line in the middle is reported by number on resume, and the file's bytes stay as they were", () => {
    const { r } = recorder();
    r.append(user("one"));
    r.append(answer("two"));
    r.close();
    const lines = fs.readFileSync(r.path, "utf8").split("\n");
    lines.splice(2, 0, "\u0000garbage{{{");
    fs.writeFileSync(r.path, lines.join("\n"));
    const bytes = fs.readFileSync(r.path);
    const resumed = resumeSession(dir, r.id, {});
    if (!resumed.ok) throw new Error(resumed.error);
    expect(resumed.notices).toEqual([
      `1 damaged line skipped in session ${r.id.slice(0, 8)}: line 3 (the file is left as it is).`,
    ]);
    expect(resumed.session.conversation).toEqual([user("one"), answer("two")]);
    resumed.session.writer?.close();
    resumed.session.lock?.release();
    expect(fs.readFileSync(r.path).equals(bytes)).toBe(true);
  });
});

describe("switching sessions while saving fails", () => {
  it("/new says what of the old session could not be saved, where its copy went, and clears the flag", () => {
    const states: SaveState[] = [];
    const r = new SessionRecorder({ dir, fields, env: {}, onSaveState: (s) => states.push(s) });
    r.append(user("old session"));
    vi.spyOn(fs, "writeSync").mockImplementationOnce(() => {
      throw enospc();
    });
    r.append(answer("not written"));
    expect(states.map((s) => s.saved)).toEqual([false]);
    // Leaving writes what waited (the disk works again) and the flag clears with "saved again".
    r.startNew();
    expect(states.map((s) => s.saved)).toEqual([false, true]);
    expect(states[1]!.text).toBe("The session is saved again: 1 message that waited was written.");
  });
});

describe("sessions held when the process exits", () => {
  it("many open sessions (an editor serving them) share one exit listener; each closed one leaves it", () => {
    const before = process.listenerCount("exit");
    const recorders = Array.from({ length: 12 }, () => new SessionRecorder({ dir, fields, env: {} }));
    for (const r of recorders) r.append(user("hello"));
    // Node warns past 10 listeners of one event: one per session would pass it here.
    expect(process.listenerCount("exit") - before).toBeLessThanOrEqual(1);
    for (const r of recorders) r.close();
    expect(fs.readdirSync(dir).filter((f) => f.endsWith(".lock"))).toEqual([]);
    expect(fs.readdirSync(dir).filter((f) => f.endsWith(".jsonl"))).toHaveLength(12);
  });
});
