// Issue 17's capability checks, end to end in tmux against the fake Ollama (the status line's
// window and tokens: status-tokens.test.ts; its elapsed time: status-elapsed.test.ts).
import { describe, expect, it } from "vitest";
import { startFakeOllama, type FakeOllama } from "../fakes/ollama-server.js";
import { Tui, type Sandbox, eachTest } from "./harness.js";

describe("a truthful status line", () => {
  let fake: FakeOllama | undefined;
  let sb: Sandbox;
  let tui: Tui | undefined;
  eachTest(
    (s) => (sb = s),
    () => [tui, fake],
  );

  it("--think on a model that cannot think: a one-line notice, then a normal answer (no 400)", async () => {
    fake = await startFakeOllama({
      models: [{ name: "llama3.2", capabilities: ["completion", "tools"] }],
      replies: [{ steps: [{ text: "Plain answer." }] }],
    });
    tui = new Tui(sb, ["--host", fake.url, "--model", "llama3.2", "--think"]);
    await tui.waitFor("does not think before answering; --think is ignored");
    tui.type("hello");
    tui.press("Enter");
    const screen = await tui.waitFor("Plain answer.");
    // \b: the fake server's random port (e.g. 40031) is on screen too.
    expect(screen).not.toMatch(/\b400\b|does not support thinking/);
    expect(fake.chats.at(-1)!.think).toBeUndefined();
  });

  it("a model that is not installed is reported at start, before any prompt, with the pull hint", async () => {
    fake = await startFakeOllama({ models: [{ name: "qwen3:8b" }] });
    tui = new Tui(sb, ["--host", fake.url, "--model", "qwen3:4b"]);
    const screen = await tui.waitFor("ollama pull qwen3:4b");
    expect(screen).toContain("qwen3:4b");
    expect(fake.chats.length).toBe(0);
  });
});
