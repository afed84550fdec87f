// Shared by the tests of a project's own MCP servers (mcp-trust*.test.ts): a server definition
// that only touches a canary file, a project's MCP config, and the app launched in a terminal.
import fs from "node:fs";
import path from "node:path";
import type { FakeOllama } from "../fakes/ollama-server.js";
import { Tui, type Sandbox } from "./harness.js";

export const MODEL = { name: "qwen3:8b", contextLength: 40960 };

/** A server definition whose command only touches the canary (it is no MCP server: it exits). */
export function canaryServer(canary: string) {
  return { command: "sh", args: ["-c", `touch ${canary}`] };
}

export function writeProjectMcp(sb: Sandbox, file: ".agent0/mcp.json" | ".mcp.json", servers: Record<string, unknown>) {
  const abs = path.join(sb.project, file);
  fs.mkdirSync(path.dirname(abs), { recursive: true });
  fs.writeFileSync(abs, JSON.stringify({ mcpServers: servers }));
}

/**
 * Launches the app anew in a terminal (closing `previous`) and waits for its first frame; `opened`
 * gets the terminal before the wait, so the test's clean-up closes it even when the wait fails.
 */
export async function relaunch(sb: Sandbox, fake: FakeOllama, previous: Tui | undefined, opened: (t: Tui) => void) {
  previous?.kill();
  const tui = new Tui(sb, ["--host", fake.url, "--model", MODEL.name], { width: 110, height: 32 });
  opened(tui);
  await tui.waitFor("Ask anything");
  return tui;
}
