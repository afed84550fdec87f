// Fault injection in the TUI (the headless cases: faults.test.ts): a reset and then a stall each
// leave their partial answer on screen marked interrupted, with the error, and the app answers again.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startFakeOllama, type FakeOllama } from "../fakes/ollama-server.js";
import { MODEL, onlySession, PAUSE, writeConfig } from "./faults-setup.js";
import { sandbox, Tui, type Sandbox } from "./harness.js";

describe("faults from the server, in the TUI", () => {
  let sb: Sandbox;
  let tui: Tui | undefined;
  let fake: FakeOllama | undefined;
  beforeEach(() => {
    sb = sandbox();
    writeConfig(sb);
  });
  afterEach(async () => {
    tui?.kill();
    await fake?.close();
    sb.cleanup();
  });

  it("a reset and then a stall: each partial answer stays on screen marked interrupted, with the error; then it answers again", async () => {
    fake = await startFakeOllama({
      models: [{ name: MODEL }],
      replies: [
        { steps: [{ text: "First partial answer" }, { destroy: true, delayMs: PAUSE }] },
        { steps: [{ text: "Second partial answer" }, { hang: true }] },
        { steps: [{ text: "Third answer, complete." }] },
      ],
    });
    tui = new Tui(sb, ["--host", fake.url, "--model", MODEL], { width: 100, height: 40 });
    await tui.waitFor("Ask anything");

    tui.type("question one");
    tui.press("Enter");
    let screen = await tui.waitFor("the connection closed before the answer finished");
    expect(screen).toMatch(/First partial answer\s*\n\s*⏹ interrupted/);
    await tui.waitFor("Ask anything");

    tui.type("question two");
    tui.press("Enter");
    screen = await tui.waitFor("Ollama sent nothing for 1 s");
    expect(screen).toMatch(/Second partial answer\s*\n\s*⏹ interrupted/);
    expect(screen).toContain("First partial answer");
    await tui.waitFor("Ask anything");

    tui.type("question three");
    tui.press("Enter");
    await tui.waitFor("Third answer, complete.");
    const sent = fake.chats[2]!.messages.filter((m) => m.role !== "system").map((m) => `${m.role}: ${m.content}`);
    expect(sent).toEqual([
      "user: question one",
      "assistant: First partial answer",
      "user: question two",
      "assistant: Second partial answer",
      "user: question three",
    ]);

    tui.press("C-d");
    await tui.waitFor("[exit 0]");
    expect(onlySession(sb).messages).toEqual([
      { role: "user", content: "question one", sentAt: expect.any(Number) },
      { role: "assistant", content: "First partial answer", interrupted: true },
      { role: "user", content: "question two", sentAt: expect.any(Number) },
      { role: "assistant", content: "Second partial answer", interrupted: true },
      { role: "user", content: "question three", sentAt: expect.any(Number) },
      { role: "assistant", content: "Third answer, complete." },
    ]);
  });
});
