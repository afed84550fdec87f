// Issue 26, "right under the fingers": one check per item in a real terminal (tmux), against the
// fake Ollama. The pure parts are in tests/ui/under-the-fingers.test.ts.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { startFakeOllama, type FakeOllama } from "../fakes/ollama-server.js";
import { appOn, eachTest, mcpReportedWith, ROOT, runHeadless, waitUntil, type Sandbox } from "./harness.js";

const MODEL = { name: "qwen3:8b", contextLength: 8192, capabilities: ["completion", "tools", "thinking"] };
const OTHERS = [
  { name: "gemma3:4b", capabilities: ["completion", "vision"] },
  { name: "llama3.2:3b", capabilities: ["completion", "tools"] },
  { name: "mistral:7b", capabilities: ["completion", "tools"] },
  { name: "qwen3:14b", capabilities: ["completion", "tools", "thinking"] },
];

/** The selected row of the picker (its `›` marker), by the model name on it. */
const selectedModel = (screen: string) => /│ › (\S+)/.exec(screen)?.[1];

describe("right under the fingers (TUI)", () => {
  let fake: FakeOllama | undefined;
  let sb: Sandbox;
  const { open, opened } = appOn(() => ({ sb, host: fake!.url }), MODEL.name);
  eachTest(
    (s) => (sb = s),
    () => [...opened(), fake],
  );

  it("one Ctrl+C keeps the app alive and says how to exit; a second one quits", async () => {
    fake = await startFakeOllama({ models: [MODEL] });
    const tui = open([], { width: 80, height: 24 });
    await tui.waitFor("Ask anything");
    tui.press("C-c");
    await tui.waitFor("Press Ctrl+C again to exit");
    // The hint goes by itself, well after an exit would have shown; a Ctrl+C after it arms again
    // instead of quitting.
    await waitUntil(() => !tui.screen().includes("again to exit"), 5000, "the hint to go");
    expect(tui.screen()).not.toContain("[exit");
    tui.press("C-c");
    await tui.waitFor("Press Ctrl+C again to exit");
    tui.press("C-c");
    await tui.waitFor("[exit 0]");
  });

  it("three arrows in one write move the /model picker three rows; it opens on the current model", async () => {
    fake = await startFakeOllama({ models: [...OTHERS, MODEL] });
    const tui = open([], { width: 100, height: 30 });
    await tui.waitFor("Ask anything");
    tui.type("/model");
    tui.press("Enter");
    let screen = await tui.waitFor("Choose a model");
    // Opens on the current one (listed fifth), marked, with what each model can do.
    expect(selectedModel(screen)).toBe("qwen3:8b");
    expect(screen).toMatch(/› qwen3:8b\s+● current/);
    expect(screen).toMatch(/gemma3:4b .*vision/);
    expect(screen).toMatch(/qwen3:14b .*thinking/);
    // Up three times, in one write (a slow SSH link or key repeat under load sends them so).
    tui.type("\x1b[A\x1b[A\x1b[A");
    await waitUntil(() => selectedModel(tui.screen()) === "llama3.2:3b", 5000, "the picker to move three rows");
    screen = tui.screen();
    expect(screen).not.toContain("End to follow");
    // Back to the current model, and Enter there changes nothing.
    tui.type("\x1b[B\x1b[B\x1b[B");
    await waitUntil(() => selectedModel(tui.screen()) === "qwen3:8b", 5000, "the picker to come back");
    tui.press("Enter");
    await waitUntil(() => !tui.screen().includes("Choose a model"), 5000, "the picker to close");
    expect(tui.screen()).not.toContain("Model: qwen3:8b (used from the next request)");
  });

  it("three arrows in one write move the slash menu three rows", async () => {
    fake = await startFakeOllama({ models: [MODEL] });
    const tui = open([], { width: 100, height: 30 });
    await tui.waitFor("Ask anything");
    tui.type("/");
    const menu = await tui.waitFor(/› \/\w+/);
    const rows = menu.split("\n").filter((l) => /^\s*[› ] \/[a-z]/.test(l));
    const names = rows.map((l) => /\/([a-z-]+)/.exec(l)![1]);
    tui.type("\x1b[B\x1b[B\x1b[B");
    await tui.waitFor(new RegExp(`› /${names[3]}\\b`));
  });

  it("a message queued (Alt+Enter) during a run shows above the input at once; Up takes it back", async () => {
    fake = await startFakeOllama({
      models: [MODEL],
      replies: [
        { steps: Array.from({ length: 40 }, (_, i) => ({ text: `word${i} `, delayMs: 100 })) },
        { steps: [{ text: "ok" }] },
      ],
    });
    const tui = open([], { width: 100, height: 30 });
    await tui.waitFor("Ask anything");
    tui.type("first");
    tui.press("Enter");
    await tui.waitFor("word2");
    tui.type("second thoughts");
    // Alt+Enter queues for after the run (Enter would steer it at the next step).
    tui.press("M-Enter");
    await tui.waitFor("queued: second thoughts", 1000);
    tui.press("Up");
    await waitUntil(() => !tui.screen().includes("queued: second"), 5000, "the queued line to come back");
    expect(tui.screen()).toMatch(/› second thoughts/);
  });

  it("n answers the project MCP trust question", async () => {
    fake = await startFakeOllama({ models: [MODEL] });
    const canary = path.join(sb.home, "canary-n");
    // A second server, approved after evil is declined: both answers reach the agent as one sync,
    // and its report naming `good` is when evil would have been named too.
    const good = { command: "node", args: [path.join(ROOT, "tests", "fakes", "mcp-demo-server.mjs")] };
    fs.writeFileSync(
      path.join(sb.project, ".mcp.json"),
      JSON.stringify({ mcpServers: { evil: { command: "sh", args: ["-c", `touch ${canary}`] }, good } }),
    );
    const tui = open([], { width: 100, height: 30 });
    const screen = await tui.waitFor("Start this project's MCP servers?");
    expect(screen).toContain("n do not start this one");
    tui.press("n");
    await tui.waitFor("(2 of 2)");
    tui.press("Up");
    tui.press("Enter");
    await tui.waitFor("Not started: evil");
    expect(await mcpReportedWith(sb, tui, "good")).not.toContain("evil");
    expect(fs.existsSync(canary)).toBe(false);
  });

  it("--continue paints the conversation in its first frame", async () => {
    fake = await startFakeOllama({ models: [MODEL], replies: [{ steps: [{ text: "The canary answer 7431." }] }] });
    const first = await runHeadless(sb, ["-p", "remember this", "--host", fake.url, "--model", MODEL.name]);
    expect(first.code).toBe(0);
    // Nothing loads after the first frame while this file exists: what is on screen is that frame.
    const hold = path.join(sb.home, "hold");
    fs.writeFileSync(hold, "");
    sb.env.AGENT0_TEST_HOLD_BOOT_SCREEN = hold;
    const tui = open(["--continue"], { width: 80, height: 24 });
    const screen = await tui.waitFor("The canary answer 7431.");
    expect(screen).toContain("› remember this");
    fs.rmSync(hold);
    await tui.waitFor("idle");
    expect(tui.screen()).toContain("The canary answer 7431.");
  });
});

describe("right under the fingers (headless)", () => {
  let fake: FakeOllama | undefined;
  let sb: Sandbox;
  eachTest(
    (s) => (sb = s),
    () => [fake],
  );

  it("stream-json opens with the session id, model and cwd; a wrong model name gets a did-you-mean", async () => {
    fake = await startFakeOllama({ models: [MODEL, ...OTHERS], replies: () => ({ steps: [{ text: "ok" }] }) });
    const r = await runHeadless(sb, [
      "-p",
      "hi",
      "--host",
      fake.url,
      "--model",
      MODEL.name,
      "--output-format",
      "stream-json",
    ]);
    expect(r.code).toBe(0);
    const init = JSON.parse(r.stdout.split("\n")[0]!);
    expect(init).toMatchObject({ type: "system", subtype: "init", model: MODEL.name, cwd: sb.project });
    expect(init.session_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(fs.readdirSync(path.join(sb.env.XDG_DATA_HOME!, "agent0", "sessions"))).toContain(
      `${init.session_id}.jsonl`,
    );

    const wrong = await runHeadless(sb, ["-p", "hi", "--host", fake.url, "--model", "qwen3:8"]);
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain("Did you mean qwen3:8b? /model lists the installed models");
  });
});
