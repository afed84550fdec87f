// Opening and ending the connection to one MCP server: the SDK transport for its config, the
// tail of a stdio server's stderr (kept for error messages, never shown on the terminal), and
// making sure a stdio server's process is really gone.
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { McpServerConfig } from "../../protocol/run-config.js";

const STDERR_TAIL_CHARS = 2_000;

export type OpenedTransport =
  { ok: true; transport: Transport; kind: "stdio" | "http"; stderrTail(): string } | { ok: false; error: string };

export function openTransport(config: McpServerConfig, cwd: string | undefined): OpenedTransport {
  if (config.command) {
    // The SDK merges these over its own safe subset of the environment (PATH, HOME, USER, ...).
    const transport = new StdioClientTransport({
      command: config.command,
      args: config.args ?? [],
      env: config.env,
      cwd,
      // Piped, not inherited: a server's logging must not draw over the full-screen UI.
      stderr: "pipe",
    });
    let tail = "";
    transport.stderr?.on("data", (chunk: Buffer | string) => {
      tail = (tail + chunk.toString()).slice(-STDERR_TAIL_CHARS);
    });
    return { ok: true, transport, kind: "stdio", stderrTail: () => tail };
  }
  if (config.url) {
    let url: URL;
    try {
      url = new URL(config.url);
    } catch {
      return { ok: false, error: `invalid url: ${config.url}` };
    }
    const transport = new StreamableHTTPClientTransport(url, { requestInit: { headers: config.headers ?? {} } });
    return { ok: true, transport, kind: "http", stderrTail: () => "" };
  }
  return { ok: false, error: 'the config has neither "command" (stdio) nor "url" (streamable HTTP)' };
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
