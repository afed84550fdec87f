// The MCP servers of a session: started together (in parallel, after the first frame), each
// within its timeout, offered to the model as tools, kept in step with the config (sync: a
// changed definition restarts, an unchanged one keeps running), and stopped — processes gone —
// when the session ends. A server that fails is reported by name and never keeps the others from working.
import type { McpServerConfig } from "../../protocol/run-config.js";
import type { McpServerView } from "../../protocol/mcp-state.js";
import { MCP_TOOL_NAME_MAX, mcpToolDef, mcpToolName, type McpToolDef } from "../../tools/mcp.js";
import { McpConnection } from "./connection.js";
import { formatMcpResult, type McpCallResult } from "../../tools/mcp-content.js";
import type { ImageAttachment } from "../../protocol/conversation.js";
import type { McpMaterial } from "../../tools/mcp-resources.js";

export { MCP_CLOSE_GRACE_MS, MCP_START_TIMEOUT_MS } from "./connection.js";
export const MCP_CALL_TIMEOUT_MS = 120_000;

export type { McpState } from "../../protocol/mcp-state.js";
/** One server's state, as tests and the worker read it. */
export type McpStatus = Pick<McpServerView, "name" | "state" | "error" | "tools" | "pid">;

export interface McpManagerOptions {
  /** Per server, for spawning, the handshake and listing (a server's own `timeout` wins). */
  timeoutMs?: number;
  /** Per tool call (a server's own `toolTimeout` wins). */
  callTimeoutMs?: number;
  /** Working folder of stdio servers, and the root offered to every server. */
  cwd?: string;
  /** Told whenever a server's state or one of its lists changes. */
  onChange?: (servers: McpServerView[]) => void;
}

export class McpManager {
  private readonly connections = new Map<string, McpConnection>();
  private readonly pending = new Set<Promise<void>>();
  private closed = false;
  private toolDefs: McpToolDef[] | undefined;
  /** Bumped on every change; the worker rebuilds the tool list when it moves. */
  generation = 0;

  constructor(
    servers: Record<string, McpServerConfig>,
    private readonly opts: McpManagerOptions = {},
  ) {
    for (const [name, config] of Object.entries(servers)) this.connections.set(name, this.connection(name, config));
  }

  private connection(name: string, config: McpServerConfig): McpConnection {
    return new McpConnection(name, config, {
      cwd: this.opts.cwd,
      timeoutMs: this.opts.timeoutMs,
      onChange: () => this.changed(),
    });
  }

  private changed(): void {
    this.generation++;
    this.toolDefs = undefined;
    this.opts.onChange?.(this.views());
  }

  private track(p: Promise<void>): Promise<void> {
    this.pending.add(p);
    const settled = () => void this.pending.delete(p);
    // Its caller handles the rejection; this only forgets the promise either way.
    p.then(settled, settled);
    return p;
  }

  /** Starts every server not started yet, in parallel; resolves when each is running or has failed. */
  async start(): Promise<McpStatus[]> {
    await Promise.all(
      [...this.connections.values()].filter((c) => c.state === "starting").map((c) => this.startOne(c)),
    );
    return this.status();
  }

  private started = new WeakSet<McpConnection>();
  private startOne(c: McpConnection): Promise<void> {
    if (this.started.has(c)) return this.ready();
    this.started.add(c);
    return this.track(c.start());
  }

  /** Resolves once no server is starting (a run waits for this before its first step). */
  async ready(): Promise<void> {
    while (this.pending.size > 0) await Promise.all([...this.pending]);
  }

  /**
   * Runs exactly `servers`: new ones start, removed ones stop, changed definitions restart, the
   * others keep running untouched.
   */
  async sync(servers: Record<string, McpServerConfig>): Promise<void> {
    if (this.closed) return;
    const work: Promise<void>[] = [];
    for (const [name, c] of this.connections) {
      if (!(name in servers)) {
        this.connections.delete(name);
        work.push(this.track(c.stop()));
      }
    }
    for (const [name, config] of Object.entries(servers)) {
      const current = this.connections.get(name);
      if (current && JSON.stringify(current.config) === JSON.stringify(config)) {
        if (!this.started.has(current)) work.push(this.startOne(current));
        continue;
      }
      const next = this.connection(name, config);
      this.connections.set(name, next);
      work.push(this.track((current ? current.stop() : Promise.resolve()).then(() => this.startOne(next))));
    }
    this.changed();
    await Promise.all(work);
  }

  /** Stops one server and starts it again with the same definition. */
  async restart(name: string): Promise<boolean> {
    const current = this.connections.get(name);
    if (!current || this.closed) return false;
    const next = this.connection(name, current.config);
    this.connections.set(name, next);
    this.changed();
    await this.track(current.stop().then(() => this.startOne(next)));
    return true;
  }

  /** One ToolDef per tool of each running server, in config order. */
  tools(): McpToolDef[] {
    this.toolDefs ??= this.buildTools();
    return this.toolDefs;
  }

  status(): McpStatus[] {
    return this.views().map(({ name, state, error, tools, pid }) => {
      const s: McpStatus = { name, state, tools };
      if (error !== undefined) s.error = error;
      if (pid !== undefined) s.pid = pid;
      return s;
    });
  }

  views(): McpServerView[] {
    return [...this.connections.values()].map((c) => c.view());
  }

  private running(server: string): McpConnection {
    const c = this.connections.get(server);
    if (!c) throw new Error(`no MCP server named ${server} (see /mcp)`);
    if (c.state !== "running" || !c.client) throw new Error(`MCP server ${server} is ${c.state}`);
    return c;
  }

  /** A server prompt rendered to one user turn: its messages' text, and their images. */
  async renderPrompt(server: string, name: string, args: Record<string, string>): Promise<McpMaterial> {
    const { client } = this.running(server);
    const result = await client!.getPrompt({ name, arguments: args });
    const images: ImageAttachment[] = [];
    const parts = result.messages.map((m) => {
      const out = formatMcpResult({ content: [m.content] as McpCallResult["content"] });
      images.push(...(out.images ?? []));
      // The turn is the user's; an assistant message of the prompt is kept, marked as such.
      return m.role === "assistant" ? `(assistant) ${out.content}` : out.content;
    });
    return { text: parts.join("\n\n"), images };
  }

  /** A resource's contents as text (binary parts become a note of their type and size), and its images. */
  async readResource(server: string, uri: string, signal?: AbortSignal): Promise<McpMaterial> {
    const { client } = this.running(server);
    const result = await client!.readResource({ uri }, { signal });
    const images: ImageAttachment[] = [];
    const parts = result.contents.map((c) => {
      const out = formatMcpResult({ content: [{ type: "resource", resource: c as { uri: string } }] });
      images.push(...(out.images ?? []));
      return out.content;
    });
    return { text: parts.join("\n"), images };
  }

  /** Stops every server; stdio processes are gone when this resolves. */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.all([...this.connections.values()].map((c) => c.stop()));
    // A server still starting stops itself once its handshake settles.
    await this.ready();
  }

  private buildTools(): McpToolDef[] {
    const taken = new Set<string>();
    const defs: McpToolDef[] = [];
    for (const c of this.connections.values()) {
      const client = c.client;
      if (c.state !== "running" || !client) continue;
      for (const tool of c.tools) {
        const name = uniqueName(mcpToolName(c.name, tool.name), taken);
        taken.add(name);
        defs.push(
          mcpToolDef(name, tool, {
            server: c.name,
            trusted: c.config.trusted === true,
            client,
            callTimeoutMs: c.config.toolTimeout ?? this.opts.callTimeoutMs ?? MCP_CALL_TIMEOUT_MS,
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
