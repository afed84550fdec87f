// Test helpers: a ToolContext that records what a tool did, and throwaway project folders.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach } from "vitest";
import type { RunEvent } from "../../src/protocol/agent-event.js";
import type { RunConfig } from "../../src/protocol/run-config.js";
import type { ApprovalKind, ToolContext } from "../../src/tools/types.js";
import { createSessionMemory } from "../../src/tools/session-memory.js";

export interface ApprovalRequest {
  tool: string;
  kind: ApprovalKind;
  args: Record<string, unknown>;
  preview: string;
}

export interface TestContext extends ToolContext {
  events: RunEvent[];
  approvals: ApprovalRequest[];
  beforeWrites: string[];
  controller: AbortController;
}

export interface CtxOptions {
  /** Deny every approval with this reason. */
  deny?: string;
  outputLimit?: number;
  callId?: string;
}

export function testConfig(cwd: string, outputLimit = 32_000): RunConfig {
  return {
    provider: "ollama",
    model: "test-model",
    host: "http://127.0.0.1:1",
    cwd,
    systemPrompt: "",
    // Above a small window (protocol/window.ts): the full prompt and tool set.
    numCtx: 32768,
    numCtxCap: 32768,
    maxSteps: 50,
    outputLimit,
    permissionMode: "ask",
    allowedTools: [],
    toolProtocol: "native",
    idleTimeoutMs: 30_000,
    interactive: false,
    dataDir: path.join(cwd, ".data"),
    configDir: path.join(cwd, ".config"),
  };
}

export function makeCtx(cwd: string, opts: CtxOptions = {}): TestContext {
  const controller = new AbortController();
  const events: RunEvent[] = [];
  const approvals: ApprovalRequest[] = [];
  const beforeWrites: string[] = [];
  return {
    cwd,
    signal: controller.signal,
    config: testConfig(cwd, opts.outputLimit),
    async approve(req) {
      approvals.push(req);
      return opts.deny === undefined ? { ok: true } : { ok: false, reason: opts.deny };
    },
    async beforeWrite(abs) {
      beforeWrites.push(abs);
    },
    emit(event) {
      events.push(event);
    },
    memory: createSessionMemory(),
    runAgent: () => Promise.reject(new Error("no sub-agents in tool tests")),
    depth: 0,
    callId: opts.callId ?? "call-1",
    events,
    approvals,
    beforeWrites,
    controller,
  };
}

/** A temp folder holding `files` (path -> content); remove it with `cleanup`. */
export function tempProject(files: Record<string, string | Buffer> = {}): { dir: string; cleanup: () => void } {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "agent0-tools-")));
  for (const [rel, content] of Object.entries(files)) {
    const abs = path.join(dir, rel);
    fs.mkdirSync(path.dirname(abs), { recursive: true });
    fs.writeFileSync(abs, content);
  }
  return { dir, cleanup: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

/** True while the process exists and is not a zombie waiting to be reaped. */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    return false;
  }
}

/** The folders `project` made in the running test (a test may make several): all removed after it. */
const made: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of made.splice(0)) cleanup();
});

/** A throwaway project folder holding `files`, removed after the test. */
export function project(files: Record<string, string | Buffer> = {}): string {
  const p = tempProject(files);
  made.push(p.cleanup);
  return p.dir;
}

/**
 * Host pids of the live processes whose command line holds `marker`. A command runs in a pid
 * namespace of its own, where `$$` and `$!` are not the host's pids: tests find them by a mark.
 */
export function pidsWith(marker: string): number[] {
  const out: number[] = [];
  for (const name of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    try {
      if (fs.readFileSync(`/proc/${name}/cmdline`, "utf8").includes(marker) && isAlive(Number(name)))
        out.push(Number(name));
    } catch {
      // gone
    }
  }
  return out;
}
