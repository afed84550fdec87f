import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { startFakeOllama, type FakeOllama } from "../fakes/ollama-server.js";
import { Tui, type Sandbox, eachTest, waitUntil } from "./harness.js";

// The first frame is painted with plain ANSI before blessed loads (ui/runtime/boot-screen.ts).
describe("the boot frame", () => {
  let fake: FakeOllama;
  let sb: Sandbox;
  let tui: Tui | undefined;
  eachTest(
    (s) => (sb = s),
    () => [tui, fake],
  );

  const marks = (file: string): string[] =>
    fs.existsSync(file)
      ? fs
          .readFileSync(file, "utf8")
          .split("\n")
          .filter(Boolean)
          .map((l) => (JSON.parse(l) as { event: string }).event)
      : [];

  it("survives a resize, keeps the keys typed before blessed takes over, and hands over the same cells", async () => {
    fake = await startFakeOllama({ models: [{ name: "qwen3:8b" }] });
    const hold = path.join(sb.home, "hold");
    const bench = path.join(sb.home, "bench.jsonl");
    fs.writeFileSync(hold, "");
    sb.env.AGENT0_TEST_HOLD_BOOT_SCREEN = hold;
    sb.env.AGENT0_BENCH_FILE = bench;
    tui = new Tui(sb, ["--host", fake.url, "--model", "qwen3:8b"], { width: 100, height: 30 });
    await tui.waitFor("Ask anything");
    expect(marks(bench)).toEqual(["first-paint"]);

    // Growing the window: a frame that was not repainted would keep its old 100-column rule.
    tui.tmux("resize-window", "-t", "main", "-x", "120", "-y", "40");
    await waitUntil(() => (tui!.screen().split("\n")[39] ?? "").includes("Ask anything"), 10_000, "frame at 120x40");
    const boot = tui.screen().split("\n");
    expect(boot[37]).toContain("idle · qwen3:8b");
    // The rule above the input names the mode and spans the width.
    const rule = "── ask · shift+tab to cycle ";
    expect(boot[38]).toBe(rule + "─".repeat(120 - rule.length));
    expect(boot.filter((line) => line.includes("a coding agent for local models"))).toHaveLength(1);
    tui.type("hello");

    fs.rmSync(hold);
    await waitUntil(() => marks(bench).includes("blessed-paint"), 20_000, "blessed to take over");
    const screen = (await tui.waitFor("› hello")).split("\n");
    // The transcript (the welcome) is cell for cell what the boot frame showed.
    expect(screen.slice(0, 36)).toEqual(boot.slice(0, 36));
    expect(screen.filter((line) => line.includes("a coding agent for local models"))).toHaveLength(1);
  });
});
