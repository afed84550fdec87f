// A streamable HTTP MCP server (in this process, on 127.0.0.1) used through McpManager.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { randomUUID } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import * as z from "zod";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { McpManager } from "../../src/agent/mcp/servers.js";
import { runCall } from "../tools/call.js";
import { makeCtx } from "../tools/ctx.js";

interface HttpDemo {
  url: string;
  authHeaders: (string | undefined)[];
  methods: string[];
  close(): Promise<void>;
}

async function startHttpDemo(): Promise<HttpDemo> {
  const server = new McpServer({ name: "web", version: "1.0.0" });
  server.registerTool(
    "shout",
    { description: "Upper-case the text.", inputSchema: { text: z.string() } },
    async ({ text }) => ({
      content: [{ type: "text", text: text.toUpperCase() }],
    }),
  );
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID() });
  await server.connect(transport);
  const authHeaders: (string | undefined)[] = [];
  const methods: string[] = [];
  const httpServer = http.createServer((req, res) => {
    authHeaders.push(req.headers.authorization);
    methods.push(req.method ?? "");
    // A request the SDK cannot handle fails the test through the client's error, not an unhandled rejection.
    transport.handleRequest(req, res).catch((err: Error) => res.destroy(err));
  });
  await new Promise<void>((resolve) => httpServer.listen(0, "127.0.0.1", resolve));
  const { port } = httpServer.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    authHeaders,
    methods,
    async close() {
      await server.close();
      httpServer.closeAllConnections();
      await new Promise<void>((resolve) => httpServer.close(() => resolve()));
    },
  };
}

let cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.reverse()) await c();
  cleanups = [];
});

describe("McpManager over streamable HTTP", () => {
  it("lists and calls the server's tools, sending the configured headers", async () => {
    const demo = await startHttpDemo();
    cleanups.push(() => demo.close());
    const m = new McpManager({ web: { url: demo.url, headers: { Authorization: "Bearer t0ken" } } });
    cleanups.push(() => m.close());

    const [status] = await m.start();
    expect(status).toEqual({ name: "web", state: "running", tools: ["shout"] });
    const result = await runCall(
      { id: "c1", name: "mcp__web__shout", args: { text: "hi" } },
      m.tools(),
      makeCtx(process.cwd()),
    );
    expect(result).toEqual({ content: "HI" });
    expect(demo.authHeaders.length).toBeGreaterThan(0);
    expect(demo.authHeaders.every((h) => h === "Bearer t0ken")).toBe(true);

    await m.close();
    // The session is ended on the server too.
    expect(demo.methods).toContain("DELETE");
  });

  it("reports a server that refuses connections by name", async () => {
    const probe = http.createServer();
    await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
    const { port } = probe.address() as AddressInfo;
    await new Promise<void>((resolve) => probe.close(() => resolve()));

    const m = new McpManager({ gone: { url: `http://127.0.0.1:${port}/mcp` } });
    cleanups.push(() => m.close());
    const [status] = await m.start();
    expect(status!.name).toBe("gone");
    expect(status!.state).toBe("failed");
    expect(status!.error).toMatch(/fetch failed|ECONNREFUSED/);
  });

  it("reports an invalid url", async () => {
    const m = new McpManager({ bad: { url: "not a url" } });
    expect(await m.start()).toEqual([{ name: "bad", state: "failed", error: "invalid url: not a url", tools: [] }]);
  });
});
