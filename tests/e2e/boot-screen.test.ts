import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { startFakeOllama, type FakeOllama } from "../fakes/ollama-server.js";
import { ROOT, Tui, type Sandbox, eachTest, waitUntil } from "./harness.js";

// The first frame is painted with plain ANSI before main and blessed load (src/boot.ts, called by
// bin/agent0.js; ui/runtime/boot-screen.ts).
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
    // Painted before main (commander, the runtime) had even loaded: main marks "main-loaded",
    // held back until the hold file goes (the order of the two is checked below).
    await waitUntil(() => marks(bench).includes("first-paint"), 10_000, "the first paint's mark");
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
    expect(marks(bench).slice(0, 2)).toEqual(["first-paint", "main-loaded"]);
    const screen = (await tui.waitFor("› hello")).split("\n");
    // The transcript (the welcome) is cell for cell what the boot frame showed.
    expect(screen.slice(0, 36)).toEqual(boot.slice(0, 36));
    expect(screen.filter((line) => line.includes("a coding agent for local models"))).toHaveLength(1);
  });

  it("shows the model and mode the command line names, as the app then does", async () => {
    fake = await startFakeOllama({ models: [{ name: "qwen3:8b" }, { name: "llama3.2:3b" }] });
    const hold = path.join(sb.home, "hold");
    const bench = path.join(sb.home, "bench.jsonl");
    fs.writeFileSync(hold, "");
    sb.env.AGENT0_TEST_HOLD_BOOT_SCREEN = hold;
    sb.env.AGENT0_BENCH_FILE = bench;
    tui = new Tui(sb, ["--host=" + fake.url, "-m", "llama3.2:3b", "--permission-mode", "plan"], {
      width: 100,
      height: 30,
    });
    const boot = (await tui.waitFor("Ask anything")).split("\n");
    expect(boot[27]).toContain("idle · llama3.2:3b");
    expect(boot[28]).toContain("plan mode: read-only");
    fs.rmSync(hold);
    await waitUntil(() => marks(bench).includes("blessed-paint"), 20_000, "blessed to take over");
    const screen = (await tui.waitFor("Ask anything")).split("\n");
    expect(screen[27]).toContain("idle · llama3.2:3b");
    expect(screen[28]).toContain("plan mode: read-only");
    expect(screen.slice(0, 26)).toEqual(boot.slice(0, 26));
  });

  it("prints a usage error on the normal screen, not inside a boot frame", async () => {
    tui = new Tui(sb, ["--permission-mode", "sometimes"]);
    const screen = await tui.waitFor("[exit 1]");
    expect(screen).toMatch(/error: option '--permission-mode <mode>' argument 'sometimes' is invalid/);
    expect(screen).not.toContain("Ask anything");
  });

  it("gives the terminal back when main fails to load after the early frame", async () => {
    // A copy of the built app whose main cannot load: only bin and boot.ts hold the terminal then.
    const app = path.join(sb.home, "app");
    fs.mkdirSync(path.join(app, "dist"), { recursive: true });
    fs.cpSync(path.join(ROOT, "bin"), path.join(app, "bin"), { recursive: true });
    fs.cpSync(path.join(ROOT, "dist", "bundle"), path.join(app, "dist", "bundle"), { recursive: true });
    fs.copyFileSync(path.join(ROOT, "package.json"), path.join(app, "package.json"));
    fs.symlinkSync(path.join(ROOT, "node_modules"), path.join(app, "node_modules"));
    fs.writeFileSync(path.join(app, "dist", "bundle", "main.js"), 'throw new Error("canary: main did not load");\n');
    const hold = path.join(sb.home, "hold");
    fs.writeFileSync(hold, "");
    sb.env.AGENT0_TEST_HOLD_BOOT_SCREEN = hold;
    tui = new Tui(sb, [], { bin: path.join(app, "bin", "agent0.js") });
    await tui.waitFor("Ask anything");
    expect(tui.tmux("display", "-p", "-t", "main", "#{alternate_on}").trim()).toBe("1");
    fs.rmSync(hold);
    const screen = await tui.waitFor("[exit 1]");
    expect(screen).toContain("canary: main did not load");
    expect(tui.tmux("display", "-p", "-t", "main", "#{alternate_on}").trim()).toBe("0");
  });
});
