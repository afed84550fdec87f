// Drives a spawned `agent0 acp` with the ACP SDK's own client side (the SDK's `client()` app,
// which replaced ClientSideConnection in @agentclientprotocol/sdk 2.x), recording every line
// the agent writes on stdout.
import { spawn, type ChildProcess } from "node:child_process";
import { PassThrough, Readable, Writable } from "node:stream";
import * as acp from "@agentclientprotocol/sdk";
import { expect } from "vitest";
import { BIN, type Sandbox } from "./harness.js";

export interface AcpHandlers {
  permission?: (req: acp.RequestPermissionRequest) => Promise<acp.RequestPermissionResponse>;
  readTextFile?: (req: acp.ReadTextFileRequest) => Promise<acp.ReadTextFileResponse>;
  writeTextFile?: (req: acp.WriteTextFileRequest) => Promise<acp.WriteTextFileResponse>;
  elicit?: (req: acp.CreateElicitationRequest) => Promise<acp.CreateElicitationResponse>;
  /** A terminal that "runs" every command by answering with this output and exit code. */
  terminal?: { output: string; exitCode: number; created: acp.CreateTerminalRequest[]; released: string[] };
}

export interface AcpRun {
  child: ChildProcess;
  agent: acp.ClientContext;
  connection: acp.ClientConnection;
  /** Every session/update, in arrival order. */
  updates: acp.SessionNotification[];
  /** Every permission request the agent sent. */
  permissions: acp.RequestPermissionRequest[];
  /** Every line the agent wrote on stdout. */
  lines: string[];
  stderr: () => string;
  /** Writes raw bytes to the agent's stdin (malformed input). */
  writeRaw(text: string): void;
  kill(): void;
}

export function startAcp(sb: Sandbox, args: string[], handlers: AcpHandlers = {}): AcpRun {
  const child = spawn("node", [BIN, "acp", ...args], { cwd: sb.project, env: sb.env, stdio: ["pipe", "pipe", "pipe"] });
  const lines: string[] = [];
  let partial = "";
  let stderr = "";
  child.stderr!.setEncoding("utf8").on("data", (d: string) => (stderr += d));
  const toClient = new PassThrough();
  child.stdout!.on("data", (d: Buffer) => {
    partial += d.toString("utf8");
    const parts = partial.split("\n");
    partial = parts.pop()!;
    lines.push(...parts);
  });
  child.stdout!.pipe(toClient);
  const updates: acp.SessionNotification[] = [];
  const permissions: acp.RequestPermissionRequest[] = [];
  let app = acp
    .client({ name: "test-editor" })
    .onNotification(acp.methods.client.session.update, ({ params }) => {
      updates.push(params);
    })
    .onRequest(acp.methods.client.session.requestPermission, async ({ params }) => {
      permissions.push(params);
      return handlers.permission ? handlers.permission(params) : { outcome: { outcome: "cancelled" } };
    });
  if (handlers.readTextFile) {
    const read = handlers.readTextFile;
    app = app.onRequest(acp.methods.client.fs.readTextFile, ({ params }) => read(params));
  }
  if (handlers.writeTextFile) {
    const write = handlers.writeTextFile;
    app = app.onRequest(acp.methods.client.fs.writeTextFile, async ({ params }) => write(params));
  }
  if (handlers.elicit) {
    const elicit = handlers.elicit;
    app = app.onRequest(acp.methods.client.elicitation.create, ({ params }) => elicit(params));
  }
  if (handlers.terminal) {
    const t = handlers.terminal;
    app = app
      .onRequest(acp.methods.client.terminal.create, ({ params }) => {
        t.created.push(params);
        return { terminalId: `term-${t.created.length}` };
      })
      .onRequest(acp.methods.client.terminal.waitForExit, () => ({ exitCode: t.exitCode }))
      .onRequest(acp.methods.client.terminal.output, () => ({
        output: t.output,
        truncated: false,
        exitStatus: { exitCode: t.exitCode },
      }))
      .onRequest(acp.methods.client.terminal.kill, () => ({}))
      .onRequest(acp.methods.client.terminal.release, ({ params }) => {
        t.released.push(params.terminalId);
        return {};
      });
  }
  const connection = app.connect(
    acp.ndJsonStream(
      Writable.toWeb(child.stdin!) as WritableStream<Uint8Array>,
      Readable.toWeb(toClient) as ReadableStream<Uint8Array>,
    ),
  );
  return {
    child,
    agent: connection.agent,
    connection,
    updates,
    permissions,
    lines,
    stderr: () => stderr,
    writeRaw: (text) => child.stdin!.write(text),
    kill: () => {
      connection.close();
      child.kill("SIGKILL");
    },
  };
}

/** initialize with the given client capabilities. */
export function initialize(run: AcpRun, caps: acp.ClientCapabilities = {}): Promise<acp.InitializeResponse> {
  return run.agent.request(acp.methods.agent.initialize, {
    protocolVersion: acp.PROTOCOL_VERSION,
    clientCapabilities: caps,
    clientInfo: { name: "test-editor", version: "1.0.0" },
  });
}

/** The updates of one session, of one kind. */
export function updatesOf<K extends acp.SessionUpdate["sessionUpdate"]>(
  run: AcpRun,
  sessionId: string,
  kind: K,
): Extract<acp.SessionUpdate, { sessionUpdate: K }>[] {
  return run.updates
    .filter((u) => u.sessionId === sessionId && u.update.sessionUpdate === kind)
    .map((u) => u.update as Extract<acp.SessionUpdate, { sessionUpdate: K }>);
}

/** The text of a session's agent_message_chunks. */
export function messageText(run: AcpRun, sessionId: string): string {
  return updatesOf(run, sessionId, "agent_message_chunk")
    .map((u) => (u.content.type === "text" ? u.content.text : ""))
    .join("");
}

/** Every line on stdout is one JSON-RPC 2.0 message. */
export function expectOnlyProtocol(r: AcpRun) {
  expect(r.lines.length).toBeGreaterThan(0);
  for (const line of r.lines) {
    const msg = JSON.parse(line) as { jsonrpc?: string };
    expect(msg.jsonrpc, line).toBe("2.0");
  }
}

/** An editor that answers every permission request with this option. */
export const allow = (optionId: string) => async () => ({ outcome: { outcome: "selected" as const, optionId } });
