// `agent0 acp`: agent0 as an Agent Client Protocol agent on stdin/stdout, for editors (Zed,
// JetBrains, Neovim…). Built on the official SDK's agent app: JSON-RPC framing, schema checks
// and errors are its. Nothing but protocol messages goes to stdout: logs go to the log file.
import { Readable, Writable } from "node:stream";
import * as acp from "@agentclientprotocol/sdk";
import {
  PERMISSION_MODES,
  type McpServerConfig,
  type PermissionMode,
  type RunConfig,
} from "../../protocol/run-config.js";
import { configFilePath, logsDir, sessionsDir } from "../../context/dirs.js";
import { isSetUp } from "../setup-state.js";
import { createLogger } from "../../session/log.js";
import { deleteSession } from "../../session/delete.js";
import { listModels } from "../tool-use.js";
import { listSessions, shorten, TITLE_COLUMNS } from "../../session/list.js";
import { sanitize } from "../../render/sanitize.js";
import type { CliOptions } from "../config.js";
import type { Startup } from "../startup.js";
import { HostedSession, type OpenAgent } from "../hosted-session.js";
import { hostedConfig } from "../hosted-config.js";
import { authenticate, authMethods } from "./auth.js";
import { openAgentSession } from "../session-agent.js";
import { editorFiles, editorTerminal } from "./client-io.js";
import { protocolStartup } from "../stdio-guard.js";
import { packageVersion } from "../version.js";
import { AcpSession } from "./session.js";

const PAGE = 50;
/** How long session/new waits for the server's model list (the model option's choices). */
const MODEL_LIST_MS = 3000;

/** The server's models by name; none when it does not answer in time (the current model is still offered). */
async function serverModels(config: RunConfig): Promise<string[]> {
  try {
    const models = await listModels(config, AbortSignal.timeout(MODEL_LIST_MS), { names: true });
    return models.map((m) => m.name);
  } catch {
    return [];
  }
}

/** The client's MCP servers in agent0's form (the ACP shapes: stdio, http, sse). */
export function clientServers(servers: acp.McpServer[]): Record<string, McpServerConfig> {
  const out: Record<string, McpServerConfig> = {};
  for (const s of servers) {
    if ("command" in s) {
      out[s.name] = {
        type: "stdio",
        command: s.command,
        args: s.args,
        env: Object.fromEntries(s.env.map((e) => [e.name, e.value])),
      };
    } else {
      out[s.name] = { type: s.type, url: s.url, headers: Object.fromEntries(s.headers.map((h) => [h.name, h.value])) };
    }
  }
  return out;
}

export interface AcpServerOptions {
  base: Startup;
  /** Whether a model was chosen on purpose (setup-state.ts): the auth methods say so. */
  setUp: boolean;
  trustProjectMcp: boolean;
  openAgent?: OpenAgent;
}

/** The agent app: every ACP method agent0 serves, over sessions kept by id. */
export function acpAgent(opts: AcpServerOptions): { app: acp.AgentApp; closeAll(): Promise<void> } {
  const sessions = new Map<string, AcpSession>();
  const logger = createLogger(logsDir());
  const dir = sessionsDir();
  let capabilities: acp.ClientCapabilities = {};
  // Yolo is offered only to a server started with it: an editor cannot turn approvals off by itself.
  const modes: PermissionMode[] = PERMISSION_MODES.filter(
    (m) => m !== "yolo" || opts.base.config.permissionMode === "yolo",
  );

  const find = (sessionId: string): AcpSession => {
    const s = sessions.get(sessionId);
    if (!s) throw acp.RequestError.resourceNotFound(sessionId);
    return s;
  };

  async function open(client: acp.AgentContext, cwd: string, mcpServers: acp.McpServer[], id?: string) {
    const made = await hostedConfig(opts.base, cwd, {
      trustProjectMcp: opts.trustProjectMcp,
      clientServers: clientServers(mcpServers),
    });

    // The session's idle events (MCP servers changing) and its terminals reach it once it exists.
    const ready: { session?: AcpSession } = {};
    const sessionId = () => ready.session?.id ?? "";
    const io = {
      files: editorFiles(client, sessionId, capabilities),
      terminal: editorTerminal(client, sessionId, capabilities, (callId, terminalId) =>
        ready.session?.showTerminal(callId, terminalId),
      ),
    };
    const hosted = new HostedSession({
      config: made.config,
      dir,
      logger,
      openAgent: opts.openAgent ?? openAgentSession(io),
      onIdleEvent: (e) => ready.session?.idleEvent(e),
    });
    for (const w of made.warnings) logger.info(`warning: ${w}`);
    const models = await serverModels(made.config);
    ready.session = new AcpSession({
      models,
      id: id ?? hosted.id,
      hosted,
      client,
      capabilities,
      modes,
      skills: made.skills,
      warnings: made.warnings,
    });
    return ready.session;
  }

  async function reopen(client: acp.AgentContext, params: acp.LoadSessionRequest | acp.ResumeSessionRequest) {
    if (sessions.has(params.sessionId))
      throw acp.RequestError.invalidRequest(undefined, `session ${params.sessionId} is already open`);
    const session = await open(client, params.cwd, params.mcpServers ?? [], params.sessionId);
    const loaded = session.hosted.load(params.sessionId);
    if (!loaded.ok) {
      await session.hosted.close();
      throw acp.RequestError.resourceNotFound(params.sessionId);
    }
    sessions.set(session.id, session);
    return session;
  }

  const app = acp
    .agent({ name: "agent0" })
    .onRequest(acp.methods.agent.initialize, ({ params }) => {
      capabilities = params.clientCapabilities ?? {};
      return {
        protocolVersion: acp.PROTOCOL_VERSION,
        agentInfo: { name: "agent0", title: "agent0", version: packageVersion() },
        agentCapabilities: {
          loadSession: true,
          promptCapabilities: { image: opts.base.config.vision !== false, audio: false, embeddedContext: true },
          mcpCapabilities: { http: true, sse: true },
          sessionCapabilities: { list: {}, resume: {}, close: {}, delete: {} },
        },
        authMethods: authMethods({
          config: opts.base.config,
          setUp: opts.setUp,
          terminal: params.clientCapabilities?.auth?.terminal === true,
        }),
      };
    })
    .onRequest(acp.methods.agent.authenticate, ({ params }) => {
      const done = authenticate(params.methodId);
      if (!done.ok) throw acp.RequestError.invalidParams(undefined, done.error);
      return {};
    })
    .onRequest(acp.methods.agent.session.new, async ({ params, client }) => {
      const session = await open(client, params.cwd, params.mcpServers);
      sessions.set(session.id, session);
      setImmediate(() => session.greet());
      return { sessionId: session.id, modes: session.modeState(), configOptions: session.configOptions() };
    })
    .onRequest(acp.methods.agent.session.load, async ({ params, client }) => {
      const session = await reopen(client, params);
      session.replay(session.hosted.conversation);
      await session.flushed();
      setImmediate(() => session.greet());
      return { modes: session.modeState(), configOptions: session.configOptions() };
    })
    .onRequest(acp.methods.agent.session.resume, async ({ params, client }) => {
      const session = await reopen(client, params);
      setImmediate(() => session.greet());
      return { modes: session.modeState(), configOptions: session.configOptions() };
    })
    .onRequest(acp.methods.agent.session.list, ({ params }) => {
      const all = listSessions(dir).sessions.filter((s) => !params.cwd || s.cwd === params.cwd);
      const from = Number(params.cursor ?? 0) || 0;
      const page = all.slice(from, from + PAGE);
      return {
        sessions: page.map((s) => ({
          sessionId: s.id,
          cwd: s.cwd,
          title: sanitize(shorten(s.title, TITLE_COLUMNS)),
          updatedAt: new Date(s.updated).toISOString(),
        })),
        ...(from + PAGE < all.length ? { nextCursor: String(from + PAGE) } : {}),
      };
    })
    .onRequest(acp.methods.agent.session.close, async ({ params }) => {
      const session = find(params.sessionId);
      sessions.delete(params.sessionId);
      await session.hosted.close();
      return {};
    })
    .onRequest(acp.methods.agent.session.delete, async ({ params }) => {
      // An open session is closed first (its file is this process's), then removed with the rest.
      const open = sessions.get(params.sessionId);
      if (open) {
        if (open.hosted.running) open.hosted.cancel();
        sessions.delete(params.sessionId);
        await open.hosted.close();
      }
      const deleted = deleteSession(dir, params.sessionId, { exact: true });
      if (!deleted.ok) {
        if (open) return {};
        throw /No session/.test(deleted.error)
          ? acp.RequestError.resourceNotFound(params.sessionId)
          : acp.RequestError.invalidRequest(undefined, deleted.error);
      }
      return {};
    })
    .onRequest(acp.methods.agent.session.setConfigOption, ({ params }) => ({
      configOptions: find(params.sessionId).setConfigOption(params.configId, params.value),
    }))
    .onRequest(acp.methods.agent.session.setMode, ({ params }) => {
      find(params.sessionId).setMode(params.modeId);
      return {};
    })
    .onRequest(acp.methods.agent.session.prompt, ({ params }) => find(params.sessionId).prompt(params.prompt))
    .onNotification(acp.methods.agent.session.cancel, ({ params }) => {
      sessions.get(params.sessionId)?.hosted.cancel();
    });

  return {
    app,
    async closeAll() {
      await Promise.all([...sessions.values()].map((s) => s.hosted.close()));
      sessions.clear();
      logger.close();
    },
  };
}

/** Serves ACP on stdin/stdout until the client closes the connection. */
export async function serveAcp(flags: CliOptions): Promise<number> {
  const base = protocolStartup(flags);
  if (!base) return 1;
  const setUp = isSetUp(configFilePath(), process.env, flags.model);
  const { app, closeAll } = acpAgent({ base, setUp, trustProjectMcp: flags.trustProjectMcp === true });
  const stream = acp.ndJsonStream(
    Writable.toWeb(process.stdout) as WritableStream<Uint8Array>,
    Readable.toWeb(process.stdin) as ReadableStream<Uint8Array>,
  );
  const connection = app.connect(stream);
  await connection.closed;
  await closeAll();
  return 0;
}
