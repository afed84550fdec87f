// McpManager lifecycle: parallel start with per-server failures, status and /mcp text, and
// processes gone after close or a start timeout.
import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { McpManager } from "../../src/agent/mcp/servers.js";
import { runCall } from "../tools/call.js";
import { formatMcpStatus } from "../../src/ui/update/mcp.js";
import { makeCtx } from "../tools/ctx.js";
import { demoServer, probe, readPid, tempDir } from "./mcp-helpers.js";

const DEMO_TOOLS = ["calls", "sleep", "echo", "add", "image", "fail", "resource"];

let managers: McpManager[] = [];
let cleanups: (() => void)[] = [];

afterEach(async () => {
  await Promise.all(managers.map((m) => m.close()));
  managers = [];
  for (const c of cleanups) c();
  cleanups = [];
});

function manager(...args: ConstructorParameters<typeof McpManager>): McpManager {
  const m = new McpManager(...args);
  managers.push(m);
  return m;
}

function pidFile(): string {
  const t = tempDir();
  cleanups.push(t.cleanup);
  return path.join(t.dir, "server.pid");
}

describe("McpManager", () => {
  it("starts the demo server and offers its tools as mcp__demo__<tool> with the server's JSON schema", async () => {
    const m = manager({ demo: demoServer() });
    const [status] = await m.start();
    expect(status).toMatchObject({ name: "demo", state: "running", tools: DEMO_TOOLS });
    expect(status!.pid).toBeGreaterThan(0);

    const tools = m.tools();
    expect(tools.map((t) => t.name)).toEqual(DEMO_TOOLS.map((t) => `mcp__demo__${t}`));
    const echo = tools.find((t) => t.name === "mcp__demo__echo")!;
    expect(echo.description).toBe("[MCP server demo] Return the text unchanged.");
    expect(echo.jsonSchema).toEqual({
      type: "object",
      properties: { text: { type: "string", description: "Text to echo." } },
      required: ["text"],
    });
    expect(echo.readOnly).toBe(false);
    expect(echo.concurrentSafe).toBe(false);
  });

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
    const hang = `require("fs").writeFileSync(process.argv[1], String(process.pid)); setInterval(() => {}, 1000);`;
    // A second is ample for the hanging server to start and write its pid, and short to wait out.
    const m = manager({ hang: { command: process.execPath, args: ["-e", hang, file] } }, { timeoutMs: 1000 });
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

  it("formats /mcp with each server's state and tools", async () => {
    const m = manager({ ghost: { command: "agent0-no-such-command-xyz" }, demo: demoServer({ trusted: true }) });
    await m.start();
    const pid = m.status()[1]!.pid!;
    expect(formatMcpStatus(m.views())).toBe(
      [
        "MCP servers (2):",
        "  ghost — failed: command not found: agent0-no-such-command-xyz",
        `  demo — running (stdio, pid ${pid}, 7 tools, 0 prompts, 0 resources, trusted): ${DEMO_TOOLS.join(", ")}`,
      ].join("\n"),
    );
  });

  it("says how to add servers when none are configured", async () => {
    const m = manager({});
    expect(await m.start()).toEqual([]);
    expect(formatMcpStatus(m.views())).toMatch(/^No MCP servers running\. Add them under "mcpServers"/);
  });

  it("keeps tool names unique when two server names sanitize to the same text", async () => {
    const m = manager({ "a.b": demoServer(), a_b: demoServer() });
    await m.start();
    const names = m.tools().map((t) => t.name);
    expect(names).toContain("mcp__a_b__echo");
    expect(names).toContain("mcp__a_b__echo_2");
    expect(new Set(names).size).toBe(names.length);
  });
});
