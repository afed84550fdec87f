// Opening and ending the connection to one MCP server: the SDK transport for its config, the
// tail of a stdio server's stderr (kept for error messages, never shown on the terminal), and
// making sure a stdio server's process is really gone.
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport, StreamableHTTPError } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { SSEClientTransport, SseError } from "@modelcontextprotocol/sdk/client/sse.js";
import type { McpServerConfig, McpTransportKind } from "../../protocol/run-config.js";

const STDERR_TAIL_CHARS = 2_000;

export type OpenedTransport =
  { ok: true; transport: Transport; kind: McpTransportKind; stderrTail(): string } | { ok: false; error: string };

/** The transport a config asks for; `sse` only when it says so (http falls back to it, see connectWithFallback). */
export function transportKind(config: McpServerConfig): McpTransportKind {
  return config.type ?? (config.command ? "stdio" : "http");
}

export function openTransport(
  config: McpServerConfig,
  cwd: string | undefined,
  kind = transportKind(config),
): OpenedTransport {
  if (kind === "stdio") {
    if (!config.command) return { ok: false, error: 'type "stdio" needs "command"' };
    // The SDK merges these over its own safe subset of the environment (PATH, HOME, USER, ...).
    const transport = new StdioClientTransport({
      command: config.command,
      args: config.args ?? [],
      env: config.env,
      cwd: config.cwd ?? cwd,
      // Piped, not inherited: a server's logging must not draw over the full-screen UI.
      stderr: "pipe",
    });
    let tail = "";
    transport.stderr?.on("data", (chunk: Buffer | string) => {
      tail = (tail + chunk.toString()).slice(-STDERR_TAIL_CHARS);
    });
    return { ok: true, transport, kind, stderrTail: () => tail };
  }
  if (!config.url) return { ok: false, error: 'the config has neither "command" (stdio) nor "url" (HTTP)' };
  let url: URL;
  try {
    url = new URL(config.url);
  } catch {
    return { ok: false, error: `invalid url: ${config.url}` };
  }
  const requestInit = { headers: config.headers ?? {} };
  const transport =
    kind === "sse"
      ? new SSEClientTransport(url, { requestInit })
      : new StreamableHTTPClientTransport(url, { requestInit });
  return { ok: true, transport, kind, stderrTail: () => "" };
}

/**
 * A Streamable HTTP attempt that a server of the 2024-11-05 kind answers with 4xx (it only
 * knows GET /sse + POST /messages) is worth one retry over the legacy SSE transport.
 */
export function shouldFallBackToSse(config: McpServerConfig, err: unknown): boolean {
  if (config.type !== undefined || !(err instanceof StreamableHTTPError)) return false;
  const code = err.code ?? 0;
  return code >= 400 && code < 500 && code !== 401 && code !== 403;
}

/** An HTTP server that wants OAuth: say so by name, and what to configure instead. */
export function authProblem(name: string, err: unknown): string | undefined {
  const code = err instanceof StreamableHTTPError || err instanceof SseError ? err.code : undefined;
  const unauthorized =
    code === 401 ||
    (err instanceof Error && (err.name === "UnauthorizedError" || /\b401\b|unauthorized/i.test(err.message)));
  if (!unauthorized) return undefined;
  return (
    `the server needs authorization (HTTP 401). agent0 does not do the OAuth sign-in yet: get an access token ` +
    `for ${name} and set it in the config, e.g. "headers": {"Authorization": "Bearer \${${envName(name)}_TOKEN}"}`
  );
}

function envName(server: string): string {
  return server.toUpperCase().replace(/[^A-Z0-9]/g, "_");
}

export function stdioPid(transport: Transport): number | undefined {
  return transport instanceof StdioClientTransport ? (transport.pid ?? undefined) : undefined;
}

/** Tells a streamable HTTP server the session is over (best effort: many servers do not support it). */
export async function endHttpSession(transport: Transport): Promise<void> {
  if (!(transport instanceof StreamableHTTPClientTransport) || transport.sessionId === undefined) return;
  await withTimeout(transport.terminateSession(), 1_000, "timed out").catch(() => {});
}

/** Rejects with `message` when `promise` has not settled within `ms`. */
export async function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists but is not ours to signal.
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** SIGTERM, then SIGKILL after `graceMs`; resolves once the pid is gone (reaped) or after a last wait. */
export async function killProcess(pid: number, graceMs: number): Promise<void> {
  if (!isRunning(pid)) return;
  signal(pid, "SIGTERM");
  if (await waitGone(pid, graceMs)) return;
  signal(pid, "SIGKILL");
  await waitGone(pid, 2_000);
}

function signal(pid: number, sig: NodeJS.Signals): void {
  try {
    process.kill(pid, sig);
  } catch {
    // Already gone.
  }
}

async function waitGone(pid: number, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (isRunning(pid)) {
    if (Date.now() >= deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return true;
}

/** "10 s" or "250 ms", for error messages. */
export function formatMs(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}
