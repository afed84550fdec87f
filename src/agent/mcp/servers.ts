// The MCP servers of a session: started together when the session starts, each within a
// timeout, offered to the model as tools, and stopped (processes gone) when the session ends.
// A server that fails is reported by name and never keeps the others from working.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { McpServerConfig } from "../../protocol/run-config.js";
import { endHttpSession, formatMs, isRunning, killProcess, openTransport, stdioPid, withTimeout } from "./transport.js";
import { MCP_TOOL_NAME_MAX, mcpToolDef, mcpToolName, type McpToolDef, type McpToolInfo } from "../../tools/mcp.js";

export const MCP_START_TIMEOUT_MS = 10_000;
export const MCP_CALL_TIMEOUT_MS = 120_000;
/** How long a stdio server gets to exit by itself after its stdin closes before it is killed. */
export const MCP_CLOSE_GRACE_MS = 2_000;
const CLIENT_INFO = { name: "agent0", version: "0.1.0" };

export type McpState = "starting" | "running" | "failed" | "stopped";

export interface McpStatus {
  name: string;
  state: McpState;
  error?: string;
  /** The tools' names on the server (the model sees them as mcp__<server>__<tool>). */
  tools: string[];
  /** Process id of a running stdio server. */
  pid?: number;
}

export interface McpManagerOptions {
  /** Per server, for spawning, the handshake and listing the tools. */
  timeoutMs?: number;
  /** Per tool call. */
  callTimeoutMs?: number;
  /** Working folder of stdio servers. */
  cwd?: string;
}

interface ServerEntry {
  name: string;
  config: McpServerConfig;
  state: McpState;
  error?: string;
  tools: McpToolInfo[];
  client?: Client;
  transport?: Transport;
  pid?: number;
}

export class McpManager {
  private readonly entries: ServerEntry[];
  private readonly timeoutMs: number;
  private readonly callTimeoutMs: number;
  private readonly cwd: string | undefined;
  private starting: Promise<McpStatus[]> | undefined;
  private closed = false;
  private toolDefs: McpToolDef[] | undefined;

  constructor(servers: Record<string, McpServerConfig>, opts: McpManagerOptions = {}) {
    this.entries = Object.entries(servers).map(([name, config]) => ({ name, config, state: "starting", tools: [] }));
    this.timeoutMs = opts.timeoutMs ?? MCP_START_TIMEOUT_MS;
    this.callTimeoutMs = opts.callTimeoutMs ?? MCP_CALL_TIMEOUT_MS;
    this.cwd = opts.cwd;
  }

  /** Starts every server in parallel; resolves when each is running or has failed. */
  start(): Promise<McpStatus[]> {
    this.starting ??= Promise.all(this.entries.map((e) => this.startOne(e))).then(() => this.status());
    return this.starting;
  }

  /** One ToolDef per tool of each running server, in config order; empty before start() settles. */
  tools(): McpToolDef[] {
    if (this.entries.some((e) => e.state === "starting")) return [];
    this.toolDefs ??= this.buildTools();
    return this.toolDefs.filter((t) => this.entries.find((e) => e.name === t.server)?.state === "running");
  }

  status(): McpStatus[] {
    return this.entries.map((e) => {
      const s: McpStatus = { name: e.name, state: e.state, tools: e.tools.map((t) => t.name) };
      if (e.error !== undefined) s.error = e.error;
      if (e.state === "running" && e.pid !== undefined) s.pid = e.pid;
      return s;
    });
  }

  /** The text of /mcp: each server, its state and its tools. */
  formatStatus(): string {
    if (this.entries.length === 0) {
      return 'No MCP servers configured. Add them under "mcpServers" in ~/.config/agent0/config.json or .agent0/mcp.json.';
    }
    const lines = [`MCP servers (${this.entries.length}):`];
    for (const s of this.status()) {
      const trusted = this.entries.find((e) => e.name === s.name)?.config.trusted ? ", trusted" : "";
      if (s.state === "failed") {
        lines.push(`  ${s.name} — failed: ${s.error ?? "unknown error"}`);
      } else if (s.state === "running") {
        const pid = s.pid !== undefined ? `pid ${s.pid}, ` : "";
        const count = `${s.tools.length} tool${s.tools.length === 1 ? "" : "s"}`;
        lines.push(
          `  ${s.name} — running (${pid}${count}${trusted})${s.tools.length > 0 ? `: ${s.tools.join(", ")}` : ""}`,
        );
      } else {
        lines.push(`  ${s.name} — ${s.state}`);
      }
    }
    return lines.join("\n");
  }

  /** Stops every server; stdio processes are gone when this resolves. */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.entries.map((e) => this.stopEntry(e)));
    // A server still starting stops itself once its handshake settles (see startOne).
    await this.starting;
  }

  private async startOne(entry: ServerEntry): Promise<void> {
    const opened = openTransport(entry.config, this.cwd);
    if (!opened.ok) {
      entry.state = "failed";
      entry.error = opened.error;
      return;
    }
    const client = new Client(CLIENT_INFO, { capabilities: {} });
    entry.client = client;
    entry.transport = opened.transport;
    try {
      const tools = await withTimeout(
        this.connectAndList(client, opened.transport, entry),
        this.timeoutMs,
        `no answer within ${formatMs(this.timeoutMs)} (timed out); the server was stopped`,
      );
      if (this.closed) throw new Error("stopped before it finished starting");
      entry.tools = tools;
      entry.state = "running";
      client.onclose = () => {
        if (entry.state !== "running") return;
        entry.state = "failed";
        entry.error = withStderr("the server exited unexpectedly", opened.stderrTail());
      };
    } catch (err) {
      await this.stopEntry(entry);
      if (this.closed) {
        entry.state = "stopped";
      } else {
        entry.state = "failed";
        entry.error = withStderr(describeStartError(err, entry.config), opened.stderrTail());
      }
    }
  }

  private async connectAndList(client: Client, transport: Transport, entry: ServerEntry): Promise<McpToolInfo[]> {
    await client.connect(transport);
    entry.pid = stdioPid(transport);
    if (!client.getServerCapabilities()?.tools) return [];
    const tools: McpToolInfo[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listTools(cursor ? { cursor } : undefined);
      for (const t of page.tools) {
        tools.push({ name: t.name, description: t.description, inputSchema: t.inputSchema as Record<string, unknown> });
      }
      cursor = page.nextCursor;
    } while (cursor);
    return tools;
  }

  /** Ends the connection; a stdio process that does not exit within the grace period is killed. */
  private async stopEntry(entry: ServerEntry): Promise<void> {
    if (entry.state === "running") entry.state = "stopped";
    const { client, transport } = entry;
    if (!client || !transport) return;
    const pid = stdioPid(transport) ?? entry.pid;
    await endHttpSession(transport);
    // A server that never answered gets no grace period: it is already misbehaving.
    const grace = entry.state === "starting" ? 0 : MCP_CLOSE_GRACE_MS;
    const closing = client.close().catch(() => {});
    if (pid !== undefined) {
      await withTimeout(closing, grace, "grace period over").catch(() => {});
      if (isRunning(pid)) await killProcess(pid, 500);
    } else {
      await withTimeout(closing, MCP_CLOSE_GRACE_MS, "").catch(() => {});
    }
  }

  private buildTools(): McpToolDef[] {
    const taken = new Set<string>();
    const defs: McpToolDef[] = [];
    for (const entry of this.entries) {
      if (!entry.client) continue;
      for (const tool of entry.tools) {
        const name = uniqueName(mcpToolName(entry.name, tool.name), taken);
        taken.add(name);
        defs.push(
          mcpToolDef(name, tool, {
            server: entry.name,
            trusted: entry.config.trusted === true,
            client: entry.client,
            callTimeoutMs: this.callTimeoutMs,
          }),
        );
      }
    }
    return defs;
  }
}

/** Sanitizing and cutting can make two names equal; later ones get a numbered end. */
function uniqueName(name: string, taken: Set<string>): string {
  if (!taken.has(name)) return name;
  for (let n = 2; ; n++) {
    const suffix = `_${n}`;
    const candidate = name.slice(0, MCP_TOOL_NAME_MAX - suffix.length) + suffix;
    if (!taken.has(candidate)) return candidate;
  }
}

function describeStartError(err: unknown, config: McpServerConfig): string {
  if ((err as NodeJS.ErrnoException).code === "ENOENT" && config.command) {
    return `command not found: ${config.command}`;
  }
  return err instanceof Error ? err.message : String(err);
}

function withStderr(message: string, stderr: string): string {
  const last = stderr.trim().split("\n").slice(-3).join(" | ").slice(-300);
  return last ? `${message} — stderr: ${last}` : message;
}
