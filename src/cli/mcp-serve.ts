// `agent0 mcp serve`: agent0 as an MCP server on stdin/stdout, so another agent or MCP client can
// hand a task to a local model (as `codex mcp-server` and `claude mcp serve` do). Two tools: one
// runs a prompt as a new agent0 session, one continues a session. Progress streams as MCP
// progress notifications; notifications/cancelled stops the run as Esc does; approvals are MCP
// elicitations where the client supports them, and refused otherwise.
import path from "node:path";
import * as z from "zod";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { AgentEvent, DoneReason } from "../protocol/agent-event.js";
import { PERMISSION_MODES, type PermissionDecision, type PermissionMode } from "../protocol/run-config.js";
import { logsDir, sessionsDir } from "../context/dirs.js";
import { createLogger, type Logger } from "../session/log.js";
import type { CliOptions } from "./config.js";
import type { Startup } from "./startup.js";
import { HostedSession, type OpenAgent, type Permission } from "./hosted-session.js";
import { hostedConfig, isInside } from "./hosted-config.js";
import { openAgentSession } from "./session-agent.js";
import { protocolStartup } from "./stdio-guard.js";
import { packageVersion } from "./version.js";

/** How much each mode lets run unasked: a client may pick a mode up to the server's own. */
const LATITUDE: Record<PermissionMode, number> = { plan: 0, ask: 1, "auto-edit": 2, yolo: 3 };

/** The modes a client may ask for, given the mode the server was started with. */
export function allowedModes(serverMode: PermissionMode): PermissionMode[] {
  return PERMISSION_MODES.filter((m) => LATITUDE[m] <= Math.max(LATITUDE.ask, LATITUDE[serverMode]));
}

const REASONS: Record<DoneReason, string> = {
  complete: "completed",
  interrupted: "cancelled",
  stuck: "stopped: the model was stuck in a loop",
  "max-steps": "stopped: the step limit was reached",
  error: "failed",
};

interface McpServeOptions {
  base: Startup;
  trustProjectMcp: boolean;
  openAgent?: OpenAgent;
  logger?: Logger;
}

type Extra = {
  signal: AbortSignal;
  _meta?: { progressToken?: string | number };
  sendNotification: (n: {
    method: "notifications/progress";
    params: { progressToken: string | number; progress: number; message?: string };
  }) => Promise<void>;
};

/** The MCP server: the two tools over sessions kept by id. */
export function agentMcpServer(opts: McpServeOptions): { server: McpServer; closeAll(): Promise<void> } {
  const root = opts.base.config.cwd;
  const logger = opts.logger ?? createLogger(logsDir());
  const dir = sessionsDir();
  const sessions = new Map<string, HostedSession>();
  const modes = allowedModes(opts.base.config.permissionMode);
  const server = new McpServer(
    { name: "agent0", title: "agent0", version: packageVersion() },
    {
      instructions:
        "agent0 runs a coding task with a local model in a project folder: it reads, edits and runs commands there, " +
        "and answers with the result. Changes and commands need the user's approval (asked through elicitation).",
    },
  );
  const canAsk = () => server.server.getClientCapabilities()?.elicitation !== undefined;

  async function ask(req: Permission): Promise<{ decision: PermissionDecision; reason?: string }> {
    const header = `agent0 wants to run ${req.tool}${req.why ? ` (${req.why})` : ""}:\n\n`;
    try {
      const answer = await server.server.elicitInput({
        message: header + req.preview,
        requestedSchema: {
          type: "object",
          properties: {
            decision: {
              type: "string",
              title: "Allow this?",
              enum: ["allow", "always", "deny"],
              enumNames: ["Allow once", `Always allow ${req.allowKey} in this session`, "Deny"],
            },
            reason: { type: "string", title: "Why not (when denying)" },
          },
          required: ["decision"],
        },
      });
      if (answer.action !== "accept") return { decision: "deny" };
      const decision = answer.content?.decision;
      const reason = typeof answer.content?.reason === "string" ? answer.content.reason.trim() : "";
      if (decision === "allow") return { decision: "once" };
      if (decision === "always") return { decision: "always" };
      return { decision: "deny", ...(reason ? { reason: `The user denied this call: ${reason}` } : {}) };
    } catch (err) {
      logger.error(`elicitation failed: ${(err as Error).message}`);
      return { decision: "deny" };
    }
  }

  async function turn(session: HostedSession, prompt: string, extra: Extra): Promise<CallToolResult> {
    const changed = new Set<string>();
    const refused: string[] = [];
    const token = extra._meta?.progressToken;
    let progress = 0;
    const report = (message: string) => {
      if (token === undefined) return;
      void extra
        .sendNotification({
          method: "notifications/progress",
          params: { progressToken: token, progress: ++progress, message },
        })
        .catch(() => {});
    };
    const onAbort = () => session.cancel();
    extra.signal.addEventListener("abort", onAbort, { once: true });
    const onEvent = (e: AgentEvent) => {
      switch (e.type) {
        case "tool-start":
          report(e.label);
          break;
        case "tool-end":
          if (e.display.diff && e.display.path) changed.add(e.display.path);
          break;
        case "denied":
          refused.push(`${e.tool}${e.why ? ` (${e.why})` : ""}: ${e.preview}`);
          break;
        case "permission-request":
          ask(e)
            .then((a) => session.answer(e.id, a.decision, a.reason))
            .catch(() => session.answer(e.id, "deny"));
          break;
        case "status":
          if (e.phase === "thinking" || e.phase === "answering") report(e.phase);
          break;
        default:
          break;
      }
    };
    let outcome;
    try {
      outcome = await session.prompt({ role: "user", content: prompt }, onEvent);
    } catch (err) {
      return { isError: true, content: [{ type: "text", text: `agent0: ${(err as Error).message}` }] };
    } finally {
      extra.signal.removeEventListener("abort", onAbort);
    }
    const filesChanged = [...changed];
    const status = REASONS[outcome.reason];
    const notes = [
      `agent0 session ${session.id}: ${status}`,
      ...(filesChanged.length ? [`files changed: ${filesChanged.join(", ")}`] : []),
      ...refused.map(
        (r) =>
          `refused, because this client cannot ask the user (no MCP elicitation) and the session's permission mode does not allow it: ${r}`,
      ),
    ];
    const text = `${outcome.answer || (outcome.error ? `Error: ${outcome.error}` : "(no answer)")}\n\n[${notes.join("]\n[")}]`;
    return {
      isError: outcome.reason === "error",
      content: [{ type: "text", text }],
      structuredContent: {
        sessionId: session.id,
        answer: outcome.answer,
        filesChanged,
        refused,
        status,
        ...(outcome.error ? { error: outcome.error } : {}),
      },
    };
  }

  async function open(cwd: string, mode: PermissionMode, model?: string): Promise<HostedSession> {
    const made = await hostedConfig(opts.base, cwd, { trustProjectMcp: opts.trustProjectMcp });
    for (const w of made.warnings) logger.info(`warning: ${w}`);
    const interactive = canAsk();
    const session = new HostedSession({
      config: { ...made.config, permissionMode: mode, interactive, ...(model ? { model } : {}) },
      dir,
      logger,
      openAgent: opts.openAgent ?? openAgentSession(),
    });
    return session;
  }

  const outputSchema = {
    sessionId: z.string(),
    answer: z.string(),
    filesChanged: z.array(z.string()),
    refused: z.array(z.string()),
    status: z.string(),
    error: z.string().optional(),
  };

  server.registerTool(
    "agent0",
    {
      title: "Run agent0",
      description:
        "Hand a coding task to agent0, a local-model coding agent: it reads the project, edits files and runs " +
        "commands (each change approved by the user), then answers. Returns the final answer, the session id " +
        "(continue it with agent0_reply) and the files it changed.",
      inputSchema: {
        prompt: z.string().min(1).describe("The task, as you would write it to a colleague."),
        cwd: z.string().optional().describe(`The project folder, inside ${root} (default: that folder).`),
        model: z.string().optional().describe("Model name, or provider/model; default: the server's."),
        permission_mode: z
          .enum(PERMISSION_MODES)
          .optional()
          .describe(`When to ask before changes: ${modes.join(", ")} (default: ${opts.base.config.permissionMode}).`),
      },
      outputSchema,
    },
    async (args, extra) => {
      const cwd = path.resolve(root, args.cwd ?? ".");
      if (!isInside(root, cwd))
        return refusal(`cwd ${args.cwd} is outside ${root}, the folder agent0 mcp serve was started in.`);
      const mode = args.permission_mode ?? opts.base.config.permissionMode;
      if (!modes.includes(mode))
        return refusal(
          `permission_mode ${mode} is not allowed by this server (allowed: ${modes.join(", ")}). ` +
            `Start it with --yolo (or --permission-mode ${mode}) to allow it.`,
        );
      const session = await open(cwd, mode, args.model);
      sessions.set(session.id, session);
      return turn(session, args.prompt, extra as unknown as Extra);
    },
  );

  server.registerTool(
    "agent0_reply",
    {
      title: "Continue an agent0 session",
      description: "Continue an agent0 session (its id came with an earlier agent0 result) with a new prompt.",
      inputSchema: {
        session_id: z.string().min(1).describe("The session id an earlier agent0 call returned."),
        prompt: z.string().min(1).describe("What to do next."),
      },
      outputSchema,
    },
    async (args, extra) => {
      let session = sessions.get(args.session_id);
      if (!session) {
        session = await open(root, opts.base.config.permissionMode);
        const loaded = session.load(args.session_id);
        if (!loaded.ok) {
          await session.close();
          return refusal(loaded.error);
        }
        if (!isInside(root, session.config.cwd)) {
          await session.close();
          return refusal(`session ${args.session_id} belongs to ${session.config.cwd}, outside ${root}.`);
        }
        sessions.set(args.session_id, session);
      }
      if (session.running) return refusal(`session ${args.session_id} is still running a prompt.`);
      return turn(session, args.prompt, extra as unknown as Extra);
    },
  );

  return {
    server,
    async closeAll() {
      await Promise.all([...sessions.values()].map((s) => s.close()));
      sessions.clear();
      logger.close();
    },
  };
}

function refusal(text: string): CallToolResult {
  return { isError: true, content: [{ type: "text", text: `agent0: ${text}` }] };
}

/** Serves MCP on stdin/stdout until the client goes. */
export async function serveMcp(flags: CliOptions): Promise<number> {
  const base = protocolStartup(flags);
  if (!base) return 1;
  const { server, closeAll } = agentMcpServer({ base, trustProjectMcp: flags.trustProjectMcp === true });
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => (server.server.onclose = resolve));
  await server.connect(transport);
  process.stdin.once("end", () => {
    transport.close().catch(() => {});
  });
  await closed;
  await closeAll();
  return 0;
}
