// Issue 25's checks, end to end in a real terminal against the fake servers: the prompt cache
// stays warm over a session with tools, a `!` line, a todo list and a mode change (/context and a
// server that cut the prompt: local-models-context.test.ts; a model still loading:
// local-models-loading.test.ts).
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { startFakeOllama, type FakeOllama, type Reply } from "../fakes/ollama-server.js";
import { Tui, type Sandbox, eachTest } from "./harness.js";

const MODEL = { name: "qwen3:8b", contextLength: 40960 };

describe("local models, fast and whole", () => {
  let fake: FakeOllama | undefined;
  let sb: Sandbox;
  let tui: Tui | undefined;
  eachTest(
    (s) => (sb = s),
    () => [tui, fake],
  );

  it("ten turns with tools, a ! line, a todo update and a mode change: each request extends the last", async () => {
    fs.writeFileSync(path.join(sb.project, "a.txt"), "alpha\n");
    const text = (t: string): Reply => ({ steps: [{ text: t }] });
    const call = (name: string, args: Record<string, unknown>): Reply => ({
      steps: [{ toolCalls: [{ name, arguments: args }] }],
    });
    fake = await startFakeOllama({
      models: [MODEL],
      replies: [
        call("read_file", { path: "a.txt" }),
        text("It says alpha."),
        text("Seen the listing."),
        call("todo_write", {
          todos: [
            { content: "Read a.txt", status: "completed" },
            { content: "Plan", status: "in_progress" },
          ],
        }),
        text("Todo list written."),
        call("grep_files", { pattern: "alpha" }),
        text("Found it once."),
        text("In plan mode: 1. Keep alpha."),
        text("Plan stays."),
        text("Five."),
        text("Six."),
        text("Seven."),
      ],
    });
    tui = await Tui.open(sb, ["--host", fake.url, "--model", MODEL.name, "--yolo"]);
    const ask = async (line: string, answer: string) => {
      tui!.send(line);
      await tui!.waitFor(answer, 15_000);
    };
    await ask("what is in a.txt?", "It says alpha.");
    tui.send("!ls");
    await tui.waitFor("a.txt");
    await ask("look at that listing", "Seen the listing.");
    await ask("keep a todo list", "Todo list written.");
    await ask("where is alpha?", "Found it once.");
    // yolo → ask → auto-edit → plan
    tui.press("BTab");
    tui.press("BTab");
    tui.press("BTab");
    await tui.waitFor(/plan mode: read-only/);
    await ask("plan the next step", "In plan mode: 1. Keep alpha.");
    await ask("and then?", "Plan stays.");
    await ask("five", "Five.");
    await ask("six", "Six.");
    await ask("seven", "Seven.");
    const chats = fake.chats;
    expect(chats.length).toBeGreaterThanOrEqual(10);
    for (let i = 1; i < chats.length; i++) {
      const before = chats[i - 1]!;
      const now = chats[i]!;
      expect(now.messages.slice(0, before.messages.length), `request ${i} extends request ${i - 1}`).toEqual(
        before.messages,
      );
      expect(JSON.stringify(now.tools)).toBe(JSON.stringify(chats[0]!.tools));
      expect(now.options?.num_ctx).toBe(chats[0]!.options?.num_ctx);
      expect(now.keep_alive).toBe(chats[0]!.keep_alive);
    }
    expect(chats[0]!.keep_alive).toBe("30m");
    // The mode change went into a message of its own, after the conversation so far.
    expect(chats.some((c) => c.messages.some((m) => m.content.includes("You are in plan mode")))).toBe(true);
    expect(chats.at(-1)!.messages[0]!.content).not.toContain("You are in plan mode");
  }, 120_000);
});
