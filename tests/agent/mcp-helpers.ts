// Shared by the MCP tests: the demo server's config and a place for pid files.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { McpServerConfig } from "../../src/protocol/run-config.js";

export const DEMO_SERVER = fileURLToPath(new URL("../fakes/mcp-demo-server.mjs", import.meta.url));

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
