import { mkdtemp, mkdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach } from "vitest";
import { testConfig } from "../tools/ctx.js";
import type { RunConfig } from "../../src/protocol/run-config.js";
import type { ToolContext } from "../../src/tools/types.js";
import { createSessionMemory } from "../../src/tools/session-memory.js";

const made: string[] = [];

afterEach(async () => {
  await Promise.all(made.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

/** A fresh temp folder, removed after the test. */
export async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "agent0-ctx-"));
  made.push(dir);
  return dir;
}

/** Writes `files` (relative path -> text) under `root`, creating folders. */
export async function writeTree(root: string, files: Record<string, string>): Promise<void> {
  for (const [rel, text] of Object.entries(files)) {
    const path = join(root, rel);
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, text);
  }
}

export function toolContext(cwd: string, configDir: string): ToolContext {
  const config: RunConfig = {
    ...testConfig(cwd),
    model: "test",
    idleTimeoutMs: 1000,
    dataDir: join(configDir, "data"),
    configDir,
  };
  return {
    cwd,
    signal: new AbortController().signal,
    config,
    approve: async () => ({ ok: false, reason: "tests never approve" }),
    beforeWrite: async () => undefined,
    emit: () => undefined,
    memory: createSessionMemory(),
    runAgent: () => Promise.reject(new Error("no sub-agents in tool tests")),
    depth: 0,
    callId: "call-1",
  };
}
