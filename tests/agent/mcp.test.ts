// McpManager lifecycle: parallel start with per-server failures, and processes gone after close,
// a start timeout or a crash. What a started manager offers (its tools, their names, the /mcp
// text) is in mcp-offer.test.ts.
import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { runCall } from "../tools/call.js";
import { makeCtx } from "../tools/ctx.js";
import { DEMO_TOOLS, demoServer, probe, readPid, useManagers } from "./mcp-helpers.js";

const { manager, pidFile } = useManagers();

describe("McpManager", () => {
  it("reports a server whose command does not exist by name, and the other server still works", async () => {
    const m = manager({ ghost: { command: "agent0-no-such-command-xyz" }, demo: demoServer() });
    const statuses = await m.start();
    expect(statuses[0]).toEqual({
      name: "ghost",
      state: "failed",
      error: "command not found: agent0-no-such-command-xyz",
      tools: [],
    });
    expect(statuses[1]!.state).toBe("running");
    expect(m.tools().every((t) => t.server === "demo")).toBe(true);

    const ctx = makeCtx(process.cwd());
    const result = await runCall({ id: "c1", name: "mcp__demo__echo", args: { text: "still here" } }, m.tools(), ctx);
    expect(result).toEqual({ content: "still here" });
  });

  it("stops a server that does not answer within the timeout and says so", async () => {
    const file = pidFile();
    // A shell writes its pid at once (node would need a good part of the second under load), then
    // becomes a sleep under the same pid that never answers.
    const hang = `echo $$ > "$1"; exec sleep 600`;
    const m = manager({ hang: { command: "sh", args: ["-c", hang, "sh", file] } }, { timeoutMs: 1000 });
    const [status] = await m.start();
    expect(status).toEqual({
      name: "hang",
      state: "failed",
      error: "no answer within 1 s (timed out); the server was stopped",
      tools: [],
    });
    expect(() => probe(readPid(file))).toThrow(expect.objectContaining({ code: "ESRCH" }));
  });

  it("reports a server that exits at start with the end of its stderr", async () => {
    const crash = `console.error("boom: missing API token"); process.exit(3);`;
    const m = manager({ crash: { command: process.execPath, args: ["-e", crash] } });
    const [status] = await m.start();
    expect(status!.state).toBe("failed");
    expect(status!.error).toMatch(/Connection closed — stderr: boom: missing API token$/);
  });

  it("reports a config with neither command nor url", async () => {
    const m = manager({ empty: {} });
    expect(await m.start()).toEqual([
      {
        name: "empty",
        state: "failed",
        error: 'the config has neither "command" (stdio) nor "url" (HTTP)',
        tools: [],
      },
    ]);
  });

  it("close() leaves no server process behind", async () => {
    const file = pidFile();
    const m = manager({ demo: demoServer({}, { MCP_DEMO_PID_FILE: file }) });
    const [status] = await m.start();
    const pid = readPid(file);
    expect(status!.pid).toBe(pid);
    expect(() => probe(pid)).not.toThrow();

    await m.close();
    expect(() => probe(pid)).toThrow(expect.objectContaining({ code: "ESRCH" }));
    expect(m.status()).toEqual([{ name: "demo", state: "stopped", tools: DEMO_TOOLS }]);
    expect(m.tools()).toEqual([]);
  });

  it("close() during start stops the servers still starting", async () => {
    const file = pidFile();
    const m = manager({ demo: demoServer({}, { MCP_DEMO_PID_FILE: file }) });
    const started = m.start();
    await m.close();
    await started;
    expect(m.status()).toEqual([{ name: "demo", state: "stopped", tools: [] }]);
    if (fs.existsSync(file)) expect(() => probe(readPid(file))).toThrow(expect.objectContaining({ code: "ESRCH" }));
  });

  it("marks a server that dies mid-session as failed and drops its tools", async () => {
    const m = manager({ demo: demoServer() });
    const [status] = await m.start();
    process.kill(status!.pid!, "SIGKILL");
    await expect.poll(() => m.status()[0]!.state).toBe("failed");
    expect(m.status()[0]!.error).toBe("the server exited unexpectedly");
    expect(m.tools()).toEqual([]);
  });
});
