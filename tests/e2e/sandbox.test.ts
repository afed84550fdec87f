// --sandbox end to end: shown in the status line and /permissions, sandboxed commands run unasked
// in auto-edit yet cannot write outside the project, and no bwrap means no start.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { startFakeOllama, type FakeOllama } from "../fakes/ollama-server.js";
import { eachTest, runHeadless, Tui, type Sandbox } from "./harness.js";

const MODEL = "qwen3:8b";

describe("[needs bubblewrap] --sandbox", () => {
  let sb: Sandbox;
  let tui: Tui | undefined;
  let fake: FakeOllama | undefined;
  eachTest(
    (s) => (sb = s),
    () => [tui, fake],
  );

  it("in auto-edit, a sandboxed command runs unasked, writes in the project, and cannot write outside it", async () => {
    // Outside /tmp, which the sandbox replaces with a private one.
    const canary = `/var/tmp/agent0-PWNED-sandbox-${process.pid}`;
    fake = await startFakeOllama({
      models: [{ name: MODEL }],
      replies: [
        {
          steps: [
            {
              toolCalls: [
                {
                  name: "run_shell_command",
                  arguments: { command: `echo built > out.txt; touch ${canary}; echo "token=[$GITHUB_TOKEN]"` },
                },
              ],
            },
          ],
        },
        { steps: [{ text: "Built." }] },
      ],
    });
    sb.env.GITHUB_TOKEN = "ghp_E2eSandboxCanary123456";
    const r = await runHeadless(sb, [
      "-p",
      "build",
      "--host",
      fake.url,
      "--model",
      MODEL,
      "--sandbox",
      "--permission-mode",
      "auto-edit",
    ]);
    expect(r.code).toBe(0);
    expect(fs.readFileSync(path.join(sb.project, "out.txt"), "utf8")).toBe("built\n");
    const planted = fs.existsSync(canary);
    fs.rmSync(canary, { force: true });
    expect(planted).toBe(false);
    const result = fake.chats[1]!.messages.find((m) => m.role === "tool")!.content;
    expect(result).toMatch(/Read-only file system|Permission denied/);
    expect(result).toContain("token=[]");
  });

  it("shows in the status line and in /permissions", async () => {
    fake = await startFakeOllama({ models: [{ name: MODEL }] });
    tui = new Tui(sb, ["--host", fake.url, "--model", MODEL, "--sandbox"], { width: 120 });
    await tui.waitFor("sandboxed");
    tui.type("/permissions");
    tui.press("Enter");
    const screen = await tui.waitFor("Sandbox: workspace-write");
    expect(screen).toContain("no network");
  });

  it("refuses to start, saying why, when bubblewrap is not there", async () => {
    const bin = path.join(sb.home, "bin");
    fs.mkdirSync(bin);
    fs.symlinkSync(process.execPath, path.join(bin, "node"));
    sb.env.PATH = bin;
    const r = await runHeadless(sb, ["-p", "hi", "--host", "http://127.0.0.1:9", "--model", MODEL, "--sandbox"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("bubblewrap (bwrap) is not installed");
    expect(r.stdout).toBe("");
  });
});
