import { connect } from "node:net";
import { readFileSync } from "node:fs";

/**
 * A port with nothing listening on it (a server that is down), that no parallel test can take:
 * one below the kernel's ephemeral range, where `listen(0)` never lands (ip_local_port_range,
 * 32768–60999 by default), checked to refuse a connection now.
 */
export async function closedPort(): Promise<number> {
  return firstRefused([9, 1, 7, 13, 19, 37, 79, 113, 1023]);
}

/**
 * The same, for a client on fetch(): the Fetch standard's "bad ports" (9, 1, 7 … 113) fail before any
 * connection with "bad port", so only ports it allows are tried.
 */
export async function closedFetchPort(): Promise<number> {
  return firstRefused([1023, 1022, 1021, 1020, 1018]);
}

async function firstRefused(candidates: number[]): Promise<number> {
  let low = 32768;
  try {
    low = Number(readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8").trim().split(/\s+/)[0]) || low;
  } catch {
    // not Linux: the usual floor
  }
  // Ports a fake never asks for: below 1024 needs root to bind, and tests bind only port 0.
  for (const port of [...candidates, Math.min(low - 1, 1023)]) {
    if (await refused(port)) return port;
  }
  throw new Error("no closed port found below the ephemeral range");
}

function refused(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: "127.0.0.1", port });
    socket.once("connect", () => {
      socket.destroy();
      resolve(false);
    });
    socket.once("error", (err: NodeJS.ErrnoException) => resolve(err.code === "ECONNREFUSED"));
  });
}

/**
 * A port free a moment ago, for a third-party server that takes its port only as a number (the MCP
 * reference servers' PORT): ours bind 0 instead. Another listen(0) could take it in between; the
 * callers wait for the server's own "listening" line, so a clash fails loudly, never silently.
 */
export async function freePort(): Promise<number> {
  const { createServer } = await import("node:net");
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as { port: number };
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}
