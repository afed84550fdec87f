// One MCP server: its connection (stdio, Streamable HTTP, or legacy SSE as a fallback), what it
// offers (tools, prompts, resources, kept fresh by its list_changed notifications), and its
// state. The set of servers is servers.ts.
import { pathToFileURL } from "node:url";
import { basename } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import {
  ListRootsRequestSchema,
  PromptListChangedNotificationSchema,
  ResourceListChangedNotificationSchema,
  ToolListChangedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import type { McpServerConfig, McpTransportKind } from "../../protocol/run-config.js";
import type {
  McpPromptInfo,
  McpResourceInfo,
  McpResourceTemplateInfo,
  McpServerView,
  McpState,
} from "../../protocol/mcp-state.js";
import type { McpToolInfo } from "../../tools/mcp.js";
import {
  authProblem,
  endHttpSession,
  formatMs,
  isRunning,
  killProcess,
  openTransport,
  shouldFallBackToSse,
  stdioPid,
  transportKind,
  withTimeout,
  type OpenedTransport,
} from "./transport.js";

export const MCP_START_TIMEOUT_MS = 30_000;
/**
 * How long a stdio server gets to exit by itself after its stdin closes, before SIGTERM (its own
 * clean exit) and, 500 ms later, SIGKILL. The MCP spec asks for "a reasonable time"; servers that
 * exit at all exit at once, and one that never does (the reference "everything" server, with its
 * timers running) held every `agent0 -p` and every quit 2 s — the SDK's own wait.
 */
export const MCP_CLOSE_GRACE_MS = 500;
const CLIENT_INFO = { name: "agent0", version: "0.1.0" };

export class McpConnection {
  state: McpState = "starting";
  error: string | undefined;
  tools: McpToolInfo[] = [];
  prompts: McpPromptInfo[] = [];
  resources: McpResourceInfo[] = [];
  resourceTemplates: McpResourceTemplateInfo[] = [];
  client: Client | undefined;
  kind: McpTransportKind;
  private transport: Transport | undefined;
  private pid: number | undefined;
  private stopping = false;

  constructor(
    readonly name: string,
    readonly config: McpServerConfig,
    private readonly opts: { cwd?: string; timeoutMs?: number; onChange: () => void },
  ) {
    this.kind = transportKind(config);
  }

  /** Connects and lists everything; never rejects (a failure is the state "failed" with a reason). */
  async start(): Promise<void> {
    const timeoutMs = this.config.timeout ?? this.opts.timeoutMs ?? MCP_START_TIMEOUT_MS;
    let opened = openTransport(this.config, this.opts.cwd);
    try {
      if (!opened.ok) throw new Error(opened.error);
      try {
        await withTimeout(this.connect(opened), timeoutMs, timeoutMessage(timeoutMs));
      } catch (err) {
        if (this.stopping || !shouldFallBackToSse(this.config, err)) throw err;
        await this.release();
        opened = openTransport(this.config, this.opts.cwd, "sse");
        if (!opened.ok) throw new Error(opened.error);
        await withTimeout(this.connect(opened), timeoutMs, timeoutMessage(timeoutMs));
      }
      if (this.stopping) throw new Error("stopped before it finished starting");
      this.state = "running";
    } catch (err) {
      await this.release();
      if (this.stopping) {
        this.state = "stopped";
      } else {
        this.state = "failed";
        this.error = withStderr(describeStartError(err, this.name, this.config), opened.ok ? opened.stderrTail() : "");
      }
    }
    this.opts.onChange();
  }

  private async connect(opened: Extract<OpenedTransport, { ok: true }>): Promise<void> {
    // Roots: the project folder, so a server that works on files (filesystem, git) works on this one.
    const client = new Client(CLIENT_INFO, { capabilities: { roots: { listChanged: false } } });
    const root = this.opts.cwd ?? process.cwd();
    client.setRequestHandler(ListRootsRequestSchema, () => ({
      roots: [{ uri: pathToFileURL(root).href, name: basename(root) }],
    }));
    this.client = client;
    this.transport = opened.transport;
    this.kind = opened.kind;
    // A list that changes on the server is fetched again, for the model's next step. Set before
    // connecting: a server may announce a change right after the handshake, while we still list.
    const refresh = (list: () => Promise<void>) => () => {
      if (this.state === "failed" || this.state === "stopped") return;
      list().then(
        () => this.opts.onChange(),
        () => {},
      );
    };
    client.setNotificationHandler(
      ToolListChangedNotificationSchema,
      refresh(() => this.listTools()),
    );
    client.setNotificationHandler(
      PromptListChangedNotificationSchema,
      refresh(() => this.listPrompts()),
    );
    client.setNotificationHandler(
      ResourceListChangedNotificationSchema,
      refresh(() => this.listResources()),
    );
    await client.connect(opened.transport);
    this.pid = stdioPid(opened.transport);
    await Promise.all([this.listTools(), this.listPrompts(), this.listResources()]);
    client.onclose = () => {
      if (this.state !== "running" || this.stopping) return;
      this.state = "failed";
      this.error = withStderr("the server exited unexpectedly", opened.stderrTail());
      this.opts.onChange();
    };
  }

  private async listTools(): Promise<void> {
    const client = this.client;
    if (!client?.getServerCapabilities()?.tools) return;
    const tools: McpToolInfo[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listTools(cursor ? { cursor } : undefined);
      for (const t of page.tools) {
        const info: McpToolInfo = { name: t.name, description: t.description, inputSchema: t.inputSchema };
        if (t.annotations) info.annotations = t.annotations;
        tools.push(info);
      }
      cursor = page.nextCursor;
    } while (cursor);
    this.tools = tools;
  }

  private async listPrompts(): Promise<void> {
    const client = this.client;
    if (!client?.getServerCapabilities()?.prompts) return;
    const prompts: McpPromptInfo[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listPrompts(cursor ? { cursor } : undefined);
      for (const p of page.prompts) {
        prompts.push({
          name: p.name,
          description: p.description,
          arguments: (p.arguments ?? []).map((a) => ({
            name: a.name,
            description: a.description,
            required: a.required,
          })),
        });
      }
      cursor = page.nextCursor;
    } while (cursor);
    this.prompts = prompts;
  }

  private async listResources(): Promise<void> {
    const client = this.client;
    if (!client?.getServerCapabilities()?.resources) return;
    const resources: McpResourceInfo[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listResources(cursor ? { cursor } : undefined);
      for (const r of page.resources) {
        resources.push({ uri: r.uri, name: r.name, description: r.description, mimeType: r.mimeType });
      }
      cursor = page.nextCursor;
    } while (cursor);
    // Templates are optional on servers: one that does not list them has none.
    const templates = await client.listResourceTemplates().catch(() => ({ resourceTemplates: [] }));
    this.resources = resources;
    this.resourceTemplates = templates.resourceTemplates.map((t) => ({
      uriTemplate: t.uriTemplate,
      name: t.name,
      description: t.description,
    }));
  }

  view(): McpServerView {
    const v: McpServerView = {
      name: this.name,
      state: this.state,
      transport: this.kind,
      trusted: this.config.trusted === true,
      tools: this.tools.map((t) => t.name),
      prompts: this.prompts,
      resources: this.resources,
      resourceTemplates: this.resourceTemplates,
    };
    if (this.error !== undefined) v.error = this.error;
    if (this.state === "running" && this.pid !== undefined) v.pid = this.pid;
    return v;
  }

  /** Ends the connection; a stdio process that does not exit within the grace period is killed. */
  async stop(): Promise<void> {
    this.stopping = true;
    if (this.state === "running") this.state = "stopped";
    await this.release();
  }

  private async release(): Promise<void> {
    const { client, transport } = this;
    this.client = undefined;
    this.transport = undefined;
    if (!client || !transport) return;
    const pid = stdioPid(transport) ?? this.pid;
    await endHttpSession(transport);
    // A server that never answered gets no grace period: it is already misbehaving.
    const grace = this.state === "starting" ? 0 : MCP_CLOSE_GRACE_MS;
    const closing = client.close().catch(() => {});
    if (pid !== undefined) {
      await withTimeout(closing, grace, "grace period over").catch(() => {});
      if (isRunning(pid)) await killProcess(pid, 500);
    } else {
      await withTimeout(closing, MCP_CLOSE_GRACE_MS, "").catch(() => {});
    }
  }
}

function timeoutMessage(ms: number): string {
  return `no answer within ${formatMs(ms)} (timed out); the server was stopped`;
}

function describeStartError(err: unknown, name: string, config: McpServerConfig): string {
  if ((err as NodeJS.ErrnoException).code === "ENOENT" && config.command) {
    return `command not found: ${config.command}`;
  }
  const auth = authProblem(name, err);
  if (auth) return auth;
  return err instanceof Error ? err.message : String(err);
}

function withStderr(message: string, stderr: string): string {
  const last = stderr.trim().split("\n").slice(-3).join(" | ").slice(-300);
  return last ? `${message} — stderr: ${last}` : message;
}
