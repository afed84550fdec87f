// The server set over a session: sync keeps unchanged servers and restarts changed ones (/new),
// restart, the legacy SSE fallback (the reference server's own SSE mode) and the OAuth message.
import { spawn, type ChildProcess } from "node:child_process";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { McpManager } from "../../src/agent/mcp/servers.js";
import { runCall } from "../tools/call.js";
import { freePort } from "../fakes/ports.js";
import { makeCtx } from "../tools/ctx.js";
import { demoServer, probe } from "./mcp-helpers.js";

const EVERYTHING = fileURLToPath(
  new URL("../../node_modules/@modelcontextprotocol/server-everything/dist/index.js", import.meta.url),
);

let cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.reverse()) await c();
  cleanups = [];
});

function manager(): McpManager {
  const m = new McpManager({}, { cwd: path.dirname(EVERYTHING) });
  cleanups.push(() => m.close());
  return m;
}

async function everythingSse(): Promise<string> {
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, [EVERYTHING, "sse"], {
    env: { PATH: process.env.PATH, PORT: String(port) },
    stdio: ["ignore", "ignore", "pipe"],
  });
  cleanups.push(() => void child.kill("SIGKILL"));
  await new Promise<void>((resolve, reject) => {
    let err = "";
    child.stderr!.on("data", (d: Buffer) => {
      err += d.toString();
      if (/running on port/i.test(err)) resolve();
    });
    child.on("exit", () => reject(new Error(`the SSE server exited: ${err}`)));
  });
  return `http://127.0.0.1:${port}/sse`;
}

describe("McpManager.sync", () => {
  it("keeps a server whose definition did not change, restarts a changed one, stops a removed one", async () => {
    const m = manager();
    await m.sync({ a: demoServer(), b: demoServer() });
    const [a1, b1] = m.status().map((s) => s.pid!);
    await m.sync({ a: demoServer(), b: demoServer({ env: { CHANGED: "1" } }) });
    const [a2, b2] = m.status().map((s) => s.pid!);
    expect(a2).toBe(a1);
    expect(b2).not.toBe(b1);
    expect(() => probe(b1!)).toThrow(/ESRCH/);
    await m.sync({ b: demoServer({ env: { CHANGED: "1" } }) });
    expect(m.status().map((s) => s.name)).toEqual(["b"]);
    expect(() => probe(a1!)).toThrow(/ESRCH/);
  });

  it("restart() gives the server a new process and its tools back", async () => {
    const m = manager();
    await m.sync({ demo: demoServer() });
    const before = m.status()[0]!.pid!;
    expect(await m.restart("demo")).toBe(true);
    const after = m.status()[0]!;
    expect(after.state).toBe("running");
    expect(after.pid).not.toBe(before);
    expect(() => probe(before)).toThrow(/ESRCH/);
    expect(m.tools().map((t) => t.name)).toContain("mcp__demo__echo");
    expect(await m.restart("nobody")).toBe(false);
  });
});

describe("HTTP transports", () => {
  it("falls back to the legacy SSE transport when the server answers the old way (everything in sse mode)", async () => {
    const url = await everythingSse();
    const m = manager();
    await m.sync({ old: { url } });
    const [view] = m.views();
    expect(view).toMatchObject({ name: "old", state: "running", transport: "sse" });
    const result = await runCall(
      { id: "c1", name: "mcp__old__echo", args: { message: "via sse" } },
      m.tools(),
      makeCtx(process.cwd()),
    );
    expect(result).toEqual({ content: "Echo: via sse" });
  });

  it("names the server and says what to configure when it wants OAuth (HTTP 401)", async () => {
    const server = http.createServer((_req, res) => {
      res.writeHead(401, { "WWW-Authenticate": 'Bearer resource_metadata="http://127.0.0.1/.well-known"' });
      res.end("unauthorized");
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    cleanups.push(() => new Promise<void>((r) => server.close(() => r())));
    const { port } = server.address() as AddressInfo;
    const m = manager();
    await m.sync({ "linear-app": { url: `http://127.0.0.1:${port}/mcp` } });
    const [view] = m.views();
    expect(view!.state).toBe("failed");
    expect(view!.error).toContain("needs authorization (HTTP 401)");
    expect(view!.error).toContain("Bearer ${LINEAR_APP_TOKEN}");
  });
});
