// A headless run scans /proc for its tagged processes at exit only when it started a child
// (cli/app-process.ts): what tells it so is node's own report of each spawn.
import { execFile, execFileSync, spawn } from "node:child_process";
import { describe, expect, it } from "vitest";
import { watchChildStarts } from "../../src/tools/shell/process-tag.js";

const exited = (child: ReturnType<typeof spawn>) => new Promise((r) => child.on("exit", r));

describe("watchChildStarts", () => {
  it("is false until a child starts, then stays true", async () => {
    const started = watchChildStarts();
    expect(started()).toBe(false);
    await exited(spawn("true"));
    expect(started()).toBe(true);
    expect(started()).toBe(true);
  });

  it("sees exec and execFile as well, and counts only what starts after it", async () => {
    await exited(spawn("true"));
    const started = watchChildStarts();
    expect(started()).toBe(false);
    await new Promise((r) => execFile("true", r));
    expect(started()).toBe(true);
  });

  it("does not see spawnSync (so src/ may not use it without saying why: eslint.config.js)", () => {
    const started = watchChildStarts();
    execFileSync("true");
    expect(started()).toBe(false);
  });
});
