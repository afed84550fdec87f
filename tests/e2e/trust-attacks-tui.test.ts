// Attacks through the approval dialog (TUI), each written as the attack: a scripted fake model
// tries it, and a canary shows whether it got through.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { startFakeOllama, type FakeOllama } from "../fakes/ollama-server.js";
import { alive, escapingChildren, MODEL, pidsOf, toolCalls } from "./attack-helpers.js";
import { eachTest, sleep, Tui, waitUntil, type Sandbox } from "./harness.js";

describe("attacks through the approval dialog (TUI)", () => {
  let sb: Sandbox;
  let tui: Tui | undefined;
  let fake: FakeOllama | undefined;
  eachTest(
    (s) => (sb = s),
    () => [tui, fake],
  );

  it("1. a 60-line command hiding `touch` below the fold: `y` does not run unseen lines; the end is reachable", async () => {
    const canary = path.join(sb.project, "PWNED-hidden-line");
    const command = `echo 'running the unit tests'${"\n".repeat(60)}touch ${canary}`;
    fake = await startFakeOllama({
      models: [{ name: MODEL }],
      replies: [toolCalls({ name: "run_shell_command", arguments: { command } }), { steps: [{ text: "Tests ran." }] }],
    });
    tui = new Tui(sb, ["--host", fake.url, "--model", MODEL], { width: 100, height: 30 });
    await tui.waitFor("Ask anything");
    tui.type("run the tests");
    tui.press("Enter");
    let screen = await tui.waitFor("Allow run_shell_command?");
    expect(screen).not.toContain("touch");
    // The attack: the user presses y having seen only the echo.
    tui.press("y");
    // The key scrolled the dialog instead of answering it (one update decides which).
    screen = await tui.waitFor(/↑ \d+ more lines above/);
    expect(fs.existsSync(canary)).toBe(false);
    expect(screen).toContain("Allow run_shell_command? (61 lines)");
    expect(screen).toMatch(/↓ \d+ more lines below/);
    tui.press("End");
    screen = await tui.waitFor(`touch ${canary}`);
    expect(screen).toMatch(/↑ \d+ more lines above/);
    tui.press("n");
    await fake.waitForChats(2);
    expect(fs.existsSync(canary)).toBe(false);
  });

  it("1. a 100-line diff: the hidden-lines marker is shown and the last line is reachable with PgDn", async () => {
    const content = Array.from({ length: 100 }, (_, i) => `line ${i + 1} of the new file`).join("\n") + "\n";
    fake = await startFakeOllama({
      models: [{ name: MODEL }],
      replies: [
        toolCalls({ name: "create_file", arguments: { path: "big.txt", content } }),
        { steps: [{ text: "Created." }] },
      ],
    });
    tui = new Tui(sb, ["--host", fake.url, "--model", MODEL], { width: 100, height: 30 });
    await tui.waitFor("Ask anything");
    tui.type("make a big file");
    tui.press("Enter");
    await tui.waitFor("Allow create_file?");
    // A big dialog reaches the terminal in more than one write: wait for its last row, the marker.
    let screen = await tui.waitFor(/↓ \d+ more lines below/);
    expect(screen).not.toContain("line 100 of the new file");
    for (let i = 0; i < 10 && !screen.includes("line 100 of the new file"); i++) {
      tui.press("PageDown");
      await sleep(150);
      screen = tui.screen();
    }
    expect(screen).toContain("line 100 of the new file");
    expect(screen).toContain("y/Enter allow once");
    tui.press("y");
    await tui.waitFor("Created.");
    expect(fs.readFileSync(path.join(sb.project, "big.txt"), "utf8")).toBe(content);
  });

  it("deny with a reason: `e` + text + Enter sends the text to the model as the tool's result", async () => {
    fake = await startFakeOllama({
      models: [{ name: MODEL }],
      replies: [
        toolCalls({ name: "create_file", arguments: { path: "indent.txt", content: "    spaces\n" } }),
        { steps: [{ text: "Understood." }] },
      ],
    });
    tui = new Tui(sb, ["--host", fake.url, "--model", MODEL]);
    await tui.waitFor("Ask anything");
    tui.type("make a file");
    tui.press("Enter");
    await tui.waitFor("Allow create_file?");
    tui.press("e");
    await tui.waitFor("Deny, telling the model:");
    tui.type("use tabs");
    await tui.waitFor("Deny, telling the model: use tabs");
    tui.press("Enter");
    await fake.waitForChats(2);
    const result = fake.chats[1]!.messages.at(-1)!;
    expect(result.role).toBe("tool");
    expect(result.content).toBe("Denied by the user: use tabs");
    expect(fs.existsSync(path.join(sb.project, "indent.txt"))).toBe(false);
  });

  it("9. closing the terminal (SIGHUP) ends the running command's children, also `&`, nohup and setsid ones", async () => {
    const { command: escaping, marks } = escapingChildren("1");
    const command = `${escaping}\nsleep 600`;
    fake = await startFakeOllama({
      models: [{ name: MODEL }],
      replies: [toolCalls({ name: "run_shell_command", arguments: { command } }), { steps: [{ text: "done" }] }],
    });
    tui = new Tui(sb, ["--host", fake.url, "--model", MODEL, "--yolo"]);
    await tui.waitFor("Ask anything");
    tui.type("start the servers");
    tui.press("Enter");
    await waitUntil(() => pidsOf(marks).length === 3, 10_000, "the children to start");
    const pids = pidsOf(marks);
    try {
      expect(pids.every(alive)).toBe(true);
      const app = tui.appPid();
      expect(app).toBeDefined();
      process.kill(app!, "SIGHUP");
      await waitUntil(() => !pids.some(alive), 5000, "the command's children to end");
    } finally {
      for (const pid of pids) if (alive(pid)) process.kill(pid, "SIGKILL");
    }
  });
});
