import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { isAlive, makeCtx, pidsWith, project } from "./ctx.js";
import { callTool } from "./call.js";
import { truncateOutput } from "../../src/tools/output.js";
import { runCommand } from "../../src/tools/shell/shell.js";
import { execFileSync } from "node:child_process";

async function waitFor<T>(probe: () => T | undefined, what: string): Promise<T> {
  for (let i = 0; i < 500; i++) {
    const value = probe();
    if (value !== undefined) return value;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe("run_shell_command", () => {
  it("runs in the project folder, asks first, and reports exit code and combined output in order", async () => {
    const dir = project({ "hello.txt": "hi" });
    const ctx = makeCtx(dir);
    const command = "cat hello.txt; echo; echo to-stderr >&2; echo back; echo err2 >&2; exit 3";
    const result = await callTool(ctx, "run_shell_command", { command });
    expect(result).toEqual({ content: "exit code 3\nhi\nto-stderr\nback\nerr2\n", isError: true });
    expect(ctx.approvals).toEqual([{ tool: "run_shell_command", kind: "shell", args: { command }, preview: command }]);
    expect(ctx.events).toEqual([
      { type: "tool-start", id: "call-1", name: "run_shell_command", args: { command }, label: `run ${command}` },
      { type: "tool-end", id: "call-1", display: expect.objectContaining({ ok: false, summary: "exit 3 · 4 lines" }) },
    ]);
  });

  it("says when there is no output, and has stdin closed", async () => {
    const dir = project();
    const result = await callTool(makeCtx(dir), "run_shell_command", { command: "cat" });
    expect(result).toEqual({ content: "exit code 0\n(no output)" });
  });

  it("does not run a denied command", async () => {
    const dir = project();
    const ctx = makeCtx(dir, { deny: "no network" });
    const result = await callTool(ctx, "run_shell_command", { command: "touch made" });
    expect(result).toEqual({ content: "Denied by the user: no network", isError: true });
    expect(fs.existsSync(path.join(dir, "made"))).toBe(false);
  });

  it("kills the whole group on timeout and says so", async () => {
    const dir = project();
    const ctx = makeCtx(dir);
    // The shell and its child are found by this mark (the command runs in a pid namespace of its own).
    const mark = `30.${process.pid}1`;
    const command = `echo started; sleep ${mark} & echo forked; wait`;
    const running = callTool(ctx, "run_shell_command", { command, timeout_ms: 1000 });
    const pids = await waitFor(() => (pidsWith(mark).length >= 2 ? pidsWith(mark) : undefined), "the command to start");
    const result = await running;
    expect(result).toEqual({
      content: "Error: timed out after 1 s; the command and its children were killed.\nstarted\nforked\n",
      isError: true,
    });
    expect(ctx.events.at(-1)).toEqual({
      type: "tool-end",
      id: "call-1",
      display: expect.objectContaining({ ok: false, summary: "timed out after 1 s" }),
    });
    // The result only comes back once the shell and its children are gone.
    expect(pids.filter(isAlive)).toEqual([]);
  });

  it("on interrupt kills the shell and its children, also one ignoring SIGTERM", async () => {
    const dir = project();
    const ctx = makeCtx(dir);
    const mark = `30.${process.pid}2`;
    // The child ignores SIGTERM, so only the SIGKILL that follows can end it.
    const command = `(trap '' TERM; exec sleep ${mark}) & wait`;
    const running = callTool(ctx, "run_shell_command", { command });
    const pids = await waitFor(() => (pidsWith(mark).length >= 2 ? pidsWith(mark) : undefined), "the command to start");
    expect(pids.every(isAlive)).toBe(true);
    ctx.controller.abort();
    const result = await running;
    expect(result).toEqual({
      content: "Error: interrupted by the user; the command and its children were killed.\n(no output)",
      isError: true,
    });
    expect(pids.filter(isAlive)).toEqual([]);
  });

  it("[needs bubblewrap] runs each command in a pid namespace of its own, and runs it bare where bwrap cannot start", async () => {
    const dir = project();
    const signal = new AbortController().signal;
    const opts = { cwd: dir, signal, timeoutMs: 10_000, outputLimit: 10_000 };
    // Inside the namespace bwrap is pid 1 and the shell's parent; agent0's process is not there.
    const inside = await runCommand("echo $PPID; test -e /proc/" + process.pid + " && echo sees-agent0", opts);
    expect(inside.output).toBe("1\n");
    // No bwrap on the PATH: the same command still runs, as before (the process tag is the fallback).
    const bin = path.join(dir, "bin");
    fs.mkdirSync(bin);
    fs.symlinkSync(execFileSync("sh", ["-c", "command -v bash"], { encoding: "utf8" }).trim(), path.join(bin, "bash"));
    const bare = await runCommand("echo ran $PPID", { ...opts, env: { PATH: bin } });
    expect(bare.exitCode).toBe(0);
    expect(bare.output).toBe(`ran ${process.pid}\n`);
    // A bwrap that cannot make namespaces (a container without user namespaces): the same.
    fs.writeFileSync(
      path.join(bin, "bwrap"),
      "#!/bin/sh\necho 'bwrap: No permissions to create new namespace' >&2\nexit 1\n",
      {
        mode: 0o755,
      },
    );
    fs.symlinkSync("/bin/sh", path.join(bin, "sh"));
    const refused = await runCommand("echo ran again", { ...opts, env: { PATH: bin } });
    expect(refused.output).toBe("ran again\n");
  });

  it("keeps huge output bounded: head and tail with the count of what was cut", async () => {
    const dir = project();
    const result = await callTool(makeCtx(dir, { outputLimit: 1000 }), "run_shell_command", {
      command: "seq 1 100000",
    });
    const total = Array.from({ length: 100000 }, (_, i) => `${i + 1}\n`).join("");
    // Only the head and tail are kept while the command runs; the text is what truncateOutput gives.
    expect(result.content).toBe(`exit code 0\n${truncateOutput(total, 1000)}`);
    expect(result.content).toContain(`\n[... ${total.length - 750} chars truncated ...]\n`);
  });

  it("gives commands no secret-looking variables, and masks a known secret printed anyway (whole, in pieces, reversed)", async () => {
    const dir = project();
    process.env.AGENT0_TEST_API_KEY = "sk-live-123456";
    process.env.AGENT0_TEST_PLAIN = "visible-value";
    try {
      const command =
        'echo "key=[$AGENT0_TEST_API_KEY] plain=$AGENT0_TEST_PLAIN"; echo sk-live-123456; echo sk-live-123456 | rev; echo sk-live-123456 | cut -c2-11';
      const result = await callTool(makeCtx(dir), "run_shell_command", { command });
      expect(result.content).toBe("exit code 0\nkey=[] plain=visible-value\n****\n****\n****\n");
    } finally {
      delete process.env.AGENT0_TEST_PLAIN;
      delete process.env.AGENT0_TEST_API_KEY;
    }
  });
});
