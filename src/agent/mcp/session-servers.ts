// The MCP servers of one agent session, as a value the session owns: the manager (created, and
// the SDK loaded, at the first mcp-sync that names a server), syncs and restarts one after
// another, what the user was told of each server, and the prompts and resources a user turn
// expands. Nothing of it lives in a module, so every session of a thread has servers of its own.
import type { RunEvent } from "../../protocol/agent-event.js";
import type { ImageAttachment } from "../../protocol/conversation.js";
import type { McpExpandRequest, McpServerView } from "../../protocol/mcp-state.js";
import type { McpServerConfig } from "../../protocol/run-config.js";

type McpServersConfig = Record<string, McpServerConfig>;
import type { McpManager } from "./servers.js";

export type CreateMcp = (cwd: string, onChange: (servers: McpServerView[]) => void) => Promise<McpManager>;

export interface SessionServers {
  /** The manager, once a sync created it (a run's tools read its servers' tools). */
  readonly manager: McpManager | undefined;
  /** Starts and stops servers to match `servers` (queued after the syncs and restarts before it). */
  sync(servers: McpServersConfig, cwd: string): void;
  restart(name: string): void;
  /** The syncs and restarts queued so far have ended: a run waits for the servers it may use. */
  settled(): Promise<void>;
  /** A user turn from a server prompt and @server:uri mentions, each resource attached below the text. */
  expand(req: McpExpandRequest): Promise<void>;
  /** Stops every server, those still starting too. */
  close(): Promise<void>;
}

async function loadMcpManager(cwd: string, onChange: (servers: McpServerView[]) => void): Promise<McpManager> {
  const { McpManager } = await import("./servers.js");
  return new McpManager({}, { cwd, onChange });
}

export function createSessionServers(
  emit: (e: RunEvent) => void,
  createMcp: CreateMcp = loadMcpManager,
): SessionServers {
  let mcp: McpManager | undefined;
  let loading: Promise<McpManager> | undefined;
  /** What the user was last told of each server, so a state is announced once. */
  const announced = new Map<string, string>();
  let syncing = 0;
  let work: Promise<void> = Promise.resolve();

  function queue(next: () => Promise<void>): void {
    work = work.then(next).catch((err: Error) => {
      emit({ type: "notice", level: "warn", text: `MCP: ${err.message}` });
    });
  }

  function managerFor(cwd: string): Promise<McpManager> {
    loading ??= createMcp(cwd, (servers) => {
      emit({ type: "mcp-state", servers });
      // A server that dies mid-session is reported at once; starts are reported per sync.
      if (syncing === 0) announce(servers);
    }).then((m) => (mcp = m));
    return loading;
  }

  /** Notices for servers that failed, and one line naming those that came up. */
  function announce(servers: McpServerView[]): void {
    const up: string[] = [];
    for (const s of servers) {
      const key = s.state === "failed" ? `failed:${s.error ?? ""}` : s.state;
      if (announced.get(s.name) === key || s.state === "starting") continue;
      announced.set(s.name, key);
      if (s.state === "failed") {
        emit({
          type: "notice",
          level: "warn",
          text: `MCP server ${s.name} failed to start: ${s.error ?? "unknown error"}`,
        });
      } else if (s.state === "running") {
        up.push(`${s.name} (${s.tools.length} tools)`);
      }
    }
    if (up.length) emit({ type: "notice", level: "info", text: `MCP: ${up.join(", ")}` });
  }

  async function sync(servers: McpServersConfig, cwd: string): Promise<void> {
    if (!mcp && !loading && Object.keys(servers).length === 0) return;
    const manager = await managerFor(cwd);
    syncing++;
    try {
      await manager.sync(servers);
    } finally {
      syncing--;
    }
    announce(manager.views());
  }

  async function restart(name: string): Promise<void> {
    const manager = mcp;
    announced.delete(name);
    syncing++;
    const found = await manager?.restart(name).finally(() => syncing--);
    if (!found) emit({ type: "notice", level: "warn", text: `No MCP server named ${name}. /mcp lists them.` });
    else announce(manager!.views());
  }

  async function expand(req: McpExpandRequest): Promise<void> {
    try {
      await work;
      const manager = mcp;
      if (!manager) throw new Error("no MCP servers are configured");
      let content = req.text;
      const images: ImageAttachment[] = [...(req.images ?? [])];
      if (req.prompt) {
        const rendered = await manager.renderPrompt(req.prompt.server, req.prompt.name, req.prompt.args);
        content = content ? `${rendered.text}\n\n${content}` : rendered.text;
        images.push(...rendered.images);
      }
      for (const r of req.resources) {
        const read = await manager.readResource(r.server, r.uri);
        content += `\n\n<resource server="${r.server}" uri="${r.uri}">\n${read.text}\n</resource>`;
        images.push(...read.images);
      }
      emit({ type: "mcp-expanded", typed: req.typed, content, ...(images.length ? { images } : {}) });
    } catch (err) {
      emit({ type: "mcp-expand-failed", typed: req.typed, error: err instanceof Error ? err.message : String(err) });
    }
  }

  return {
    get manager() {
      return mcp;
    },
    sync: (servers, cwd) => queue(() => sync(servers, cwd)),
    restart: (name) => queue(() => restart(name)),
    settled: () => work,
    expand,
    async close() {
      const manager = mcp ?? (await loading?.catch(() => undefined));
      await manager?.close().catch(() => {});
    },
  };
}
