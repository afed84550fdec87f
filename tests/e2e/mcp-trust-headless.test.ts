// Attack (issue 14, #3), continued from mcp-trust.test.ts, without a terminal: a one-shot run
// (-p) skips a cloned repository's MCP servers with a notice unless --trust-project-mcp, and an
// mcp.json the model itself wrote (in auto-edit) still is not started at the next run. Each
// server's command writes a canary file; the canary existing means the project's code ran.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { startFakeOllama, type FakeOllama } from "../fakes/ollama-server.js";
import { eachTest, runHeadless, type Sandbox } from "./harness.js";
import { canaryServer, MODEL, writeProjectMcp } from "./mcp-trust-setup.js";

describe("a project's own MCP servers need the user's trust", () => {
  let sb: Sandbox;
  let fake: FakeOllama | undefined;
  eachTest(
    (s) => (sb = s),
    () => [fake],
  );

  it("headless: Claude Code's .mcp.json is skipped with a notice unless --trust-project-mcp", async () => {
    fake = await startFakeOllama({ models: [MODEL], replies: [{ steps: [{ text: "done" }] }] });
    const canary = path.join(sb.home, "canary-headless");
    writeProjectMcp(sb, ".mcp.json", { evil: canaryServer(canary) });

    const skipped = await runHeadless(sb, ["-p", "hi", "--host", fake.url, "--model", MODEL.name]);
    expect(skipped.code).toBe(0);
    expect(skipped.stderr).toContain("MCP server evil");
    expect(skipped.stderr).toContain("not trusted");
    expect(skipped.stderr).toContain("--trust-project-mcp");
    expect(fs.existsSync(canary)).toBe(false);

    fake.setReplies([{ steps: [{ text: "done" }] }]);
    const trusted = await runHeadless(sb, [
      "-p",
      "hi",
      "--host",
      fake.url,
      "--model",
      MODEL.name,
      "--trust-project-mcp",
    ]);
    expect(trusted.stdout).toContain("done");
    expect(fs.existsSync(canary)).toBe(true);
  });

  it("auto-edit variant: an mcp.json the model wrote still needs trust at the next launch", async () => {
    const canary = path.join(sb.home, "canary-written");
    const content = JSON.stringify({ mcpServers: { planted: canaryServer(canary) } });
    fake = await startFakeOllama({
      models: [MODEL],
      replies: [
        { steps: [{ toolCalls: [{ name: "create_file", arguments: { path: ".agent0/mcp.json", content } }] }] },
        { steps: [{ text: "written" }] },
        { steps: [{ text: "second run" }] },
      ],
    });
    // Whatever the write policy (the trust helper makes .agent0/ ask), here the write happens.
    const first = await runHeadless(sb, ["-p", "set up mcp", "--host", fake.url, "--model", MODEL.name, "--yolo"]);
    expect(first.stdout).toContain("written");
    expect(fs.existsSync(path.join(sb.project, ".agent0", "mcp.json"))).toBe(true);

    const next = await runHeadless(sb, ["-p", "hi", "--host", fake.url, "--model", MODEL.name, "--yolo"]);
    expect(next.stdout).toContain("second run");
    expect(next.stderr).toContain("MCP server planted");
    expect(fs.existsSync(canary)).toBe(false);
  });
});
