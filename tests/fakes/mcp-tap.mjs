#!/usr/bin/env node
// Runs an stdio MCP server and records its traffic, so a test can see what the server received
// (a notifications/cancelled) and sent (a list_changed). Usage: mcp-tap.mjs <log> <command> [args...]
// Each JSON-RPC line goes to <log> as "> line" (to the server) or "< line" (from it); the first
// line of <log> is "pids <tap pid> <server pid>", so tests can check both are gone at the end.
import fs from "node:fs";
import { spawn } from "node:child_process";

const [log, command, ...args] = process.argv.slice(2);
const child = spawn(command, args, { stdio: ["pipe", "pipe", "inherit"] });
fs.writeFileSync(log, `pids ${process.pid} ${child.pid}\n`);

function tap(from, to, mark) {
  let buffered = "";
  from.on("data", (chunk) => {
    to.write(chunk);
    buffered += chunk.toString();
    const lines = buffered.split("\n");
    buffered = lines.pop();
    for (const line of lines) if (line.trim()) fs.appendFileSync(log, `${mark} ${line}\n`);
  });
}
tap(process.stdin, child.stdin, ">");
tap(child.stdout, process.stdout, "<");
// The client closing stdin is how stdio servers are told to stop: pass it on.
process.stdin.on("end", () => child.stdin.end());
for (const sig of ["SIGTERM", "SIGINT"]) process.on(sig, () => child.kill(sig));
child.on("exit", (code, sig) => process.exit(code ?? (sig ? 1 : 0)));
