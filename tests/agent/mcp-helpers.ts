// Shared by the MCP tests: the demo server's config and tools, a place for pid files, and managers
// closed after each test.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach } from "vitest";
import { McpManager } from "../../src/agent/mcp/servers.js";
import type { McpServerConfig } from "../../src/protocol/run-config.js";

export const DEMO_SERVER = fileURLToPath(new URL("../fakes/mcp-demo-server.mjs", import.meta.url));
/** The demo server's tools, in the order it lists them. */
export const DEMO_TOOLS = ["calls", "sleep", "echo", "add", "image", "fail", "resource"];

export function demoServer(extra: Partial<McpServerConfig> = {}, env: Record<string, string> = {}): McpServerConfig {
  return { command: process.execPath, args: [DEMO_SERVER], env, ...extra };
}

export function tempDir(): { dir: string; cleanup: () => void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "agent0-mcp-"));
  return { dir, cleanup: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

/** Throws ESRCH when the process is gone (and reaped), which is what the tests assert. */
export function probe(pid: number): void {
  process.kill(pid, 0);
}

export function readPid(file: string): number {
  return Number(fs.readFileSync(file, "utf8"));
}

/**
 * `manager` makes an McpManager and `pidFile` a path in a temp folder; after each test of the file
 * every manager made is closed (its servers stopped) and every folder removed.
 */
export function useManagers(): {
  manager: (...args: ConstructorParameters<typeof McpManager>) => McpManager;
  pidFile: () => string;
} {
  let managers: McpManager[] = [];
  let cleanups: (() => void)[] = [];
  afterEach(async () => {
    await Promise.all(managers.map((m) => m.close()));
    managers = [];
    for (const c of cleanups) c();
    cleanups = [];
  });
  return {
    manager: (...args) => {
      const m = new McpManager(...args);
      managers.push(m);
      return m;
    },
    pidFile: () => {
      const t = tempDir();
      cleanups.push(t.cleanup);
      return path.join(t.dir, "server.pid");
    },
  };
}
