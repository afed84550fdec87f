// Steer a run while it works (issue 31, part 8): a message typed during a run with several tool
// steps reaches the model at the next step boundary, before the run ends, as Agent Zero injects
// an intervention at the next step (agent0ai/agent-zero, python/helpers "intervention" between
// loop iterations) and Claude Code hands a message typed mid-turn to the model after the running
// tool. Alt+Enter keeps the older "after the run" queue.
import { describe, expect, it } from "vitest";
import { startFakeOllama, type FakeOllama } from "../fakes/ollama-server.js";
import { eachTest, Tui, type Sandbox } from "./harness.js";

const MODEL = { name: "qwen3:8b", contextLength: 40960 };
const shell = (command: string) => ({
  steps: [{ toolCalls: [{ name: "run_shell_command", arguments: { command } }] }],
});

describe("steering a run", () => {
  let sb: Sandbox;
  let fake: FakeOllama | undefined;
  let tui: Tui | undefined;
  eachTest(
    (s) => (sb = s),
    () => [tui, fake],
  );

  it("Enter during a tool step: the message reaches the model at the next step, before the run ends", async () => {
    fake = await startFakeOllama({
      models: [MODEL],
      replies: [shell("sleep 2; echo first"), shell("echo second"), { steps: [{ text: "All done." }] }],
    });
    tui = await Tui.open(sb, ["--host", fake.url, "--model", MODEL.name, "--yolo"], { width: 110, height: 32 });
    tui.send("do the steps");
    await tui.waitFor("sleep 2; echo first");
    tui.send("use the staging folder instead");
    const screen = await tui.waitFor("All done.");
    // The second request carries it, after the first tool's result: the run went on with it.
    const second = fake.chats[1]!.messages;
    const at = second.findIndex((m) => m.role === "user" && m.content === "use the staging folder instead");
    expect(at).toBeGreaterThan(0);
    expect(second[at - 1]!.role).toBe("tool");
    expect(fake.chats).toHaveLength(3);
    // Shown where it went in: after the first tool line, before the second.
    const lines = screen.split("\n");
    const steerLine = lines.findIndex((l) => l.includes("› use the staging folder instead"));
    expect(steerLine).toBeGreaterThan(lines.findIndex((l) => l.includes("sleep 2; echo first")));
    expect(steerLine).toBeLessThan(lines.findIndex((l) => l.includes("echo second")));
  });

  it("Alt+Enter during a run keeps the message for after the run", async () => {
    fake = await startFakeOllama({
      models: [MODEL],
      replies: [
        shell("sleep 2; echo first"),
        { steps: [{ text: "First answer." }] },
        { steps: [{ text: "Second answer." }] },
      ],
    });
    tui = await Tui.open(sb, ["--host", fake.url, "--model", MODEL.name, "--yolo"], { width: 110, height: 32 });
    tui.send("do it");
    await tui.waitFor("sleep 2; echo first");
    tui.type("afterwards, summarise");
    tui.press("M-Enter");
    await tui.waitFor("Second answer.");
    expect(fake.chats[1]!.messages.some((m) => m.content === "afterwards, summarise")).toBe(false);
    expect(fake.chats[2]!.messages.at(-1)).toMatchObject({ role: "user", content: "afterwards, summarise" });
  });
});
