// What a started McpManager offers: the demo server's tools as mcp__<server>__<tool> with the
// server's own JSON schema, names kept unique when two servers sanitize alike, and the /mcp text
// (each server's state and tools, or how to add one). The start and stop of servers are in
// mcp.test.ts.
import { describe, expect, it } from "vitest";
import { formatMcpStatus } from "../../src/ui/update/mcp.js";
import { DEMO_TOOLS, demoServer, useManagers } from "./mcp-helpers.js";

const { manager } = useManagers();

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
