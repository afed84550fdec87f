// Issue 6 end to end: a stuck loop stops, sub-agents answer through the delegate tool (and
// nest no deeper than 3), and a conversation that outgrows the context window is compacted.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  startFakeOllama,
  type FakeOllama,
  type RecordedChat,
  type Reply,
  type WireMessage,
} from "../fakes/ollama-server.js";
import { runHeadless, Tui, type Sandbox, eachTest } from "./harness.js";

const say = (text: string): Reply => ({ steps: [{ text }] });
const call = (name: string, args: Record<string, unknown>): Reply => ({
  steps: [{ toolCalls: [{ name, arguments: args }] }],
});
const systemOf = (chat: RecordedChat) => chat.messages.find((m) => m.role === "system")?.content ?? "";
const firstUser = (chat: RecordedChat) => chat.messages.find((m) => m.role === "user")?.content ?? "";
const toolResults = (chat: RecordedChat): WireMessage[] => chat.messages.filter((m) => m.role === "tool");
const toolNames = (chat: RecordedChat) =>
  (chat.tools ?? []).map((t) => (t as { function: { name: string } }).function.name).sort();

const EXPLORE_PROMPT = "You are a read-only exploration sub-agent.";
const GENERAL_PROMPT = "You are a sub-agent of a coding assistant.";

describe("staying on track", () => {
  let sb: Sandbox;
  let fake: FakeOllama | undefined;
  let tui: Tui | undefined;
  eachTest(
    (s) => (sb = s),
    () => [tui, fake],
  );

  it("a model that repeats one read_file call forever is stopped after the 3rd identical call", async () => {
    fs.writeFileSync(path.join(sb.project, "a.txt"), "hello\n");
    fake = await startFakeOllama({
      models: [{ name: "qwen3:8b" }],
      replies: () => call("read_file", { path: "a.txt" }),
    });
    const r = await runHeadless(sb, ["-p", "read a.txt", "--host", fake.url, "--model", "qwen3:8b", "--yolo"]);
    expect(r.code).not.toBe(0);
    expect(fake.chats).toHaveLength(3);
    expect(r.stderr).toContain(
      'Stopped: read_file {"path":"a.txt"} was called 3 times in a row with the same arguments.',
    );
    expect(r.stdout).toBe("");
    // The first two calls ran; the third was answered "not run" so no call is left without a result.
    expect(toolResults(fake.chats[2]!)).toHaveLength(2);
  });

  it("an explore sub-agent reads a file and its answer is the delegate call's result in the parent's next request", async () => {
    fs.writeFileSync(path.join(sb.project, "notes.txt"), "the secret word is PAPAYA\n");
    const subAnswer = "notes.txt line 1 says: the secret word is PAPAYA";
    fake = await startFakeOllama({
      models: [{ name: "qwen3:8b" }],
      replies: (chat) => {
        if (systemOf(chat).includes(EXPLORE_PROMPT)) {
          return toolResults(chat).length === 0 ? call("read_file", { path: "notes.txt" }) : say(subAnswer);
        }
        return toolResults(chat).length === 0
          ? call("delegate", { task: "Find the secret word in notes.txt", agent_type: "explore" })
          : say("The secret word is PAPAYA.");
      },
    });
    const r = await runHeadless(sb, [
      "-p",
      "what is the secret word?",
      "--host",
      fake.url,
      "--model",
      "qwen3:8b",
      "--yolo",
    ]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toBe("The secret word is PAPAYA.");
    expect(fake.chats.map((c) => (systemOf(c).includes(EXPLORE_PROMPT) ? "sub" : "parent"))).toEqual([
      "parent",
      "sub",
      "sub",
      "parent",
    ]);
    const [, subFirst, subSecond, parentNext] = fake.chats;
    expect(firstUser(subFirst!)).toBe("Find the secret word in notes.txt");
    // A fresh conversation: nothing of the parent's.
    expect(subFirst!.messages.map((m) => m.role)).toEqual(["system", "user"]);
    expect(toolNames(subFirst!)).toEqual([
      "glob_files",
      "grep_files",
      "list_files",
      "memory_list",
      "memory_search",
      "read_file",
    ]);
    expect(toolResults(subSecond!)[0]!.content).toContain("the secret word is PAPAYA");
    const delegated = toolResults(parentNext!);
    expect(delegated).toHaveLength(1);
    expect(delegated[0]!.content).toBe(subAnswer);
  });

  it("a fourth level of delegation is refused with an error the model sees", async () => {
    const levelOf = (chat: RecordedChat) => {
      if (!systemOf(chat).includes(GENERAL_PROMPT)) return 0;
      return Number(/^level (\d+)$/.exec(firstUser(chat))?.[1] ?? NaN);
    };
    fake = await startFakeOllama({
      models: [{ name: "qwen3:8b" }],
      replies: (chat) => {
        const level = levelOf(chat);
        const results = toolResults(chat);
        if (results.length === 0) return call("delegate", { task: `level ${level + 1}`, agent_type: "general" });
        return say(`level ${level} got: ${results[0]!.content}`);
      },
    });
    const r = await runHeadless(sb, ["-p", "go deep", "--host", fake.url, "--model", "qwen3:8b", "--yolo"], 20_000);
    expect(r.code).toBe(0);
    expect(fake.chats.map(levelOf)).toEqual([0, 1, 2, 3, 3, 2, 1, 0]);
    const refused = toolResults(fake.chats[4]!)[0]!.content;
    expect(refused).toBe("Error: delegation is limited to 3 levels; do this task yourself.");
    expect(r.stdout.trim()).toBe(
      "level 0 got: level 1 got: level 2 got: level 3 got: Error: delegation is limited to 3 levels; do this task yourself.",
    );
  });

  it("in the TUI, the sub-agent's tool lines are indented under the delegate line", async () => {
    fs.writeFileSync(path.join(sb.project, "notes.txt"), "the secret word is PAPAYA\n");
    fake = await startFakeOllama({
      models: [{ name: "qwen3:8b" }],
      replies: (chat) => {
        if (systemOf(chat).includes(EXPLORE_PROMPT)) {
          return toolResults(chat).length === 0 ? call("read_file", { path: "notes.txt" }) : say("It is PAPAYA.");
        }
        return toolResults(chat).length === 0
          ? call("delegate", { task: "Find the secret word", agent_type: "explore" })
          : say("All done: PAPAYA.");
      },
    });
    tui = new Tui(sb, ["--host", fake.url, "--model", "qwen3:8b", "--yolo"], { width: 100, height: 30 });
    await tui.waitFor("Ask anything");
    tui.type("find the secret");
    tui.press("Enter");
    const screen = await tui.waitFor("All done: PAPAYA.");
    const lines = screen.split("\n");
    const delegateAt = lines.findIndex((l) => l.includes("delegate to explore: Find the secret word"));
    const readAt = lines.findIndex((l) => l.includes("notes.txt") && !l.includes("delegate"));
    expect(delegateAt).toBeGreaterThanOrEqual(0);
    expect(readAt).toBeGreaterThan(delegateAt);
    const indent = (l: string) => l.length - l.trimStart().length;
    expect(indent(lines[readAt]!)).toBeGreaterThan(indent(lines[delegateAt]!));
  });

  it("a conversation growing past 80% of an 8192-token window is compacted; the next request fits and keeps the last user message", async () => {
    const big = Array.from(
      { length: 400 },
      (_, i) => `line ${String(i + 1).padStart(3, "0")}: ${"lorem ipsum dolor sit amet ".repeat(2)}`,
    ).join("\n");
    fs.writeFileSync(path.join(sb.project, "big.txt"), big + "\n");
    const userPrompt = "Read big.txt in four parts of 100 lines, then tell me what line 400 says.";
    const SUMMARY = "Earlier: the assistant read big.txt lines 1-200; every line is lorem ipsum.";
    // The summary is asked for at the end of the prompt as sent when that fits the window (it
    // reuses the server's cache), else in a request of its own (here: the prompt is past 80 %).
    const isSummaryRequest = (chat: RecordedChat) =>
      chat.messages.at(-1)!.content.includes("Write a summary") ||
      chat.messages.at(-1)!.content.startsWith("Summarize the conversation below");
    fake = await startFakeOllama({
      models: [{ name: "small-ctx", contextLength: 8192 }],
      replies: (chat) => {
        if (isSummaryRequest(chat)) return say(SUMMARY);
        const reads = chat.messages.filter((m) => m.tool_calls?.some((c) => c.function.name === "read_file")).length;
        const summarized = chat.messages.some((m) => m.content.includes(SUMMARY));
        if (reads < 4 && !summarized)
          return call("read_file", { path: "big.txt", offset: 1 + 100 * reads, limit: 100 });
        return say("Line 400 is lorem ipsum.");
      },
    });
    const r = await runHeadless(sb, ["-p", userPrompt, "--host", fake.url, "--model", "small-ctx", "--yolo"], 20_000);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(fake.chats[0]!.options?.num_ctx).toBe(8192);
    const summaryAt = fake.chats.findIndex(isSummaryRequest);
    expect(summaryAt).toBeGreaterThan(0);
    const summaryRequest = fake.chats[summaryAt]!;
    expect(summaryRequest.messages.some((m) => m.content.includes("big.txt"))).toBe(true);

    const next = fake.chats[summaryAt + 1]!;
    expect(isSummaryRequest(next)).toBe(false);
    expect(next.messages.some((m) => m.role === "user" && m.content.includes(SUMMARY))).toBe(true);
    expect(next.messages.filter((m) => m.role === "user").map((m) => m.content)).toContain(userPrompt);
    // The tail kept verbatim holds whole steps: each tool result goes with its call, one to one.
    const callIds = next.messages.flatMap((m) => m.tool_calls?.map((c) => c.id) ?? []);
    expect(
      toolResults(next)
        .map((t) => t.tool_call_id)
        .sort(),
    ).toEqual(callIds.sort());
    // Sizes as the fake sees them (the whole request, tool schemas included, JSON length / 4):
    // the compacted request is at most about half the window (a little slack for JSON escapes),
    // and no request, the summary request included, went over the window.
    const size = (chat: RecordedChat) => JSON.stringify(chat.body).length / 4;
    expect(size(next)).toBeLessThan(8192 * 0.6);
    for (const chat of fake.chats) expect(size(chat)).toBeLessThan(8192);
  });

  it("when Ollama reports far fewer prompt tokens than were sent, the user is warned that it cut the prompt", async () => {
    fake = await startFakeOllama({
      models: [{ name: "qwen3:8b" }],
      replies: [{ steps: [{ text: "ok" }], promptEvalCount: 300 }],
    });
    const longPrompt = `Please review this log:\n${"ERROR something failed at step 42\n".repeat(300)}`;
    const r = await runHeadless(sb, ["-p", longPrompt, "--host", fake.url, "--model", "qwen3:8b"]);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(
      /^warn: The server cut the prompt to 300 tokens \(it read 300 of about \d+ sent\): the model no longer sees the start of the conversation\./,
    );
  });

  it("Esc while a sub-agent works stops the sub-agent too", async () => {
    fake = await startFakeOllama({
      models: [{ name: "qwen3:8b" }],
      replies: (chat) => {
        if (systemOf(chat).includes(EXPLORE_PROMPT))
          return { steps: [{ text: "Looking", delayMs: 0 }, { hang: true }] };
        return toolResults(chat).length === 0
          ? call("delegate", { task: "Look around slowly", agent_type: "explore" })
          : say("never");
      },
    });
    tui = new Tui(sb, ["--host", fake.url, "--model", "qwen3:8b", "--yolo"]);
    await tui.waitFor("Ask anything");
    tui.type("explore");
    tui.press("Enter");
    await fake.waitForChats(2);
    await tui.waitFor("delegate to explore");
    const aborted = fake.waitForAbort(3000);
    tui.press("Escape");
    await aborted;
    expect(fake.chats[1]!.aborted).toBe(true);
    const screen = await tui.waitFor("interrupted");
    expect(screen).toMatch(/delegate to explore: Look around slowly/);
    expect(fake.chats).toHaveLength(2);
  });

  it("/compact summarizes the conversation with the model and says by how much it shrank", async () => {
    const SUMMARY = "The user said hello twice.";
    fake = await startFakeOllama({
      models: [{ name: "qwen3:8b" }],
      replies: (chat) =>
        chat.messages.at(-1)!.content.includes("Write a summary")
          ? say(SUMMARY)
          : say(`answer number ${chat.index + 1}`),
    });
    tui = new Tui(sb, ["--host", fake.url, "--model", "qwen3:8b"]);
    await tui.waitFor("Ask anything");
    for (const text of ["hello", "hello again", "and a third time"]) {
      tui.type(text);
      tui.press("Enter");
      await tui.waitFor(`answer number ${fake.chats.length + 1}`);
    }
    tui.type("/compact");
    tui.press("Enter");
    const screen = await tui.waitFor(/compacted: \d+ → \d+ tokens/);
    const [, before, after] = /compacted: (\d+) → (\d+) tokens/.exec(screen)!;
    expect(Number(after)).toBeLessThan(Number(before));
    // The summary request is the conversation as sent, plus the instruction (the cache holds).
    expect(fake.chats[3]!.messages.slice(0, fake.chats[2]!.messages.length)).toEqual(fake.chats[2]!.messages);
    expect(fake.chats[3]!.messages).toContainEqual({ role: "user", content: "hello again" });
    tui.type("go on");
    tui.press("Enter");
    await tui.waitFor("answer number 5");
    const next = fake.chats[4]!.messages;
    expect(next.some((m) => m.role === "user" && m.content.includes(SUMMARY))).toBe(true);
    expect(next.at(-1)!.content).toBe("go on");
  });
});
