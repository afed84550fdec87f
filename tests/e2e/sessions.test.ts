import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadSession } from "../../src/session/writer.js";
import { startFakeOllama, type FakeOllama, type WireMessage } from "../fakes/ollama-server.js";
import { appOn, eachTest, sessionFiles, type Sandbox } from "./harness.js";

const MODEL = { name: "qwen3:8b", contextLength: 40960 };
const SAVED_LINE = /Session (\S+) saved — resume with: agent0 --resume (\S+)/;

/** What the model was sent, without the system prompt: role and content in order. */
const dialogue = (messages: WireMessage[]) =>
  messages.filter((m) => m.role !== "system").map((m) => ({ role: m.role, content: m.content }));

const slowAnswer = { steps: Array.from({ length: 400 }, (_, i) => ({ text: `word${i} `, delayMs: 30 })) };

describe("sessions end to end", () => {
  let fake: FakeOllama;
  let sb: Sandbox;
  const { open, headless, opened } = appOn(() => ({ sb, host: fake.url }), MODEL.name);
  eachTest(
    (s) => (sb = s),
    () => [...opened(), fake],
  );

  it("quitting prints the id; --resume <prefix> shows the transcript and the model sees the whole history", async () => {
    fake = await startFakeOllama({
      models: [MODEL],
      replies: [{ steps: [{ text: "Paris is the capital." }] }, { steps: [{ text: "About two million people." }] }],
    });
    // Wide enough that the saved line is not wrapped.
    const first = open([], { width: 160 });
    await first.waitFor("Ask anything");
    first.type("what is the capital of France?");
    first.press("Enter");
    await first.waitFor("Paris is the capital.");
    await first.waitFor(/^idle · /m);
    first.press("C-d");
    const printed = (await first.waitFor("[exit 0]")).match(SAVED_LINE);
    expect(printed).not.toBeNull();
    const id = printed![1]!;
    expect(printed![2]).toBe(id);
    expect(sessionFiles(sb).map((f) => path.basename(f))).toEqual([`${id}.jsonl`]);

    const second = open(["--resume", id.slice(0, 8)]);
    const screen = await second.waitFor("Paris is the capital.");
    expect(screen).toContain("what is the capital of France?");
    await second.waitFor("Ask anything");
    second.type("how many people live there?");
    second.press("Enter");
    await second.waitFor("About two million people.");
    await second.waitFor(/^idle · /m);
    expect(dialogue(fake.chats[1]!.messages)).toEqual([
      { role: "user", content: "what is the capital of France?" },
      { role: "assistant", content: "Paris is the capital." },
      { role: "user", content: "how many people live there?" },
    ]);
    // The resumed session goes on in the same file.
    const saved = loadSession(sessionFiles(sb)[0]!);
    expect(saved.ok && saved.messages.map((m) => m.content)).toEqual([
      "what is the capital of France?",
      "Paris is the capital.",
      "how many people live there?",
      "About two million people.",
    ]);
  });

  it("an answer stopped with Esc is saved as an interrupted partial answer", async () => {
    fake = await startFakeOllama({ models: [MODEL], replies: [slowAnswer] });
    const tui = open([]);
    await tui.waitFor("Ask anything");
    tui.type("tell me a long story");
    tui.press("Enter");
    await tui.waitFor("word5");
    tui.press("Escape");
    await tui.waitFor(/^idle · /m);
    tui.press("C-d");
    await tui.waitFor("[exit 0]");
    const saved = loadSession(sessionFiles(sb)[0]!);
    if (!saved.ok) throw new Error(saved.error);
    expect(saved.messages).toHaveLength(2);
    expect(saved.messages[1]).toMatchObject({ role: "assistant", interrupted: true });
    expect(saved.messages[1]!.content).toMatch(/^word0 word1 word2 word3 word4 word5 /);
  });

  it("after kill -9 mid-answer, the session file holds every completed message and resumes", async () => {
    fake = await startFakeOllama({ models: [MODEL], replies: [{ steps: [{ text: "First answer." }] }, slowAnswer] });
    const tui = open([]);
    await tui.waitFor("Ask anything");
    tui.type("first question");
    tui.press("Enter");
    await tui.waitFor("First answer.");
    await tui.waitFor(/^idle · /m);
    tui.type("tell me a long story");
    tui.press("Enter");
    await tui.waitFor("word5");
    const pid = tui.appPid();
    expect(pid).toBeDefined();
    process.kill(pid!, "SIGKILL");
    await tui.waitFor("[exit 137]");

    const files = sessionFiles(sb);
    expect(files).toHaveLength(1);
    const saved = loadSession(files[0]!);
    expect(saved.ok).toBe(true);
    if (!saved.ok) return;
    expect(saved.messages.slice(0, 3).map((m) => ({ role: m.role, content: m.content }))).toEqual([
      { role: "user", content: "first question" },
      { role: "assistant", content: "First answer." },
      { role: "user", content: "tell me a long story" },
    ]);
    // Beyond these, at most the answer's first words, saved while it streamed, marked interrupted.
    expect(saved.messages.slice(3).every((m) => m.role === "assistant" && m.interrupted)).toBe(true);

    const resumed = open(["--resume", saved.header.id]);
    const screen = await resumed.waitFor("tell me a long story");
    expect(screen).toContain("first question");
    expect(screen).toContain("First answer.");
  });

  it("a session killed while a tool call waited for permission resumes with a well-formed history", async () => {
    fake = await startFakeOllama({
      models: [MODEL],
      replies: [
        {
          steps: [
            { toolCalls: [{ name: "create_file", id: "call_pending1", arguments: { path: "x.txt", content: "x\n" } }] },
          ],
        },
      ],
    });
    const tui = open([]);
    await tui.waitFor("Ask anything");
    tui.type("make x");
    tui.press("Enter");
    await tui.waitFor("Allow create_file?");
    process.kill(tui.appPid()!, "SIGKILL");
    await tui.waitFor("[exit 137]");

    const r = await headless(["--continue", "-p", "what happened?"]);
    expect(r.code).toBe(0);
    const sent = fake.chats[1]!.messages.filter((m) => m.role !== "system");
    expect(sent.map((m) => [m.role, m.content])).toEqual([
      ["user", "make x"],
      ["assistant", ""],
      ["tool", "Not run: the run was stopped before this tool finished."],
      ["user", "what happened?"],
    ]);
    expect(sent[1]!.tool_calls?.[0]?.id).toBe("call_pending1");
    expect(sent[2]).toMatchObject({ tool_name: "create_file" });
    expect(fs.existsSync(path.join(sb.project, "x.txt"))).toBe(false);
  });

  // Nine headless processes one after another: on a loaded 2-core machine that can take more than 30 s.
});
