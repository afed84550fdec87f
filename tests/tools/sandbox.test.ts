// The bubblewrap sandbox, through run_shell_command as the model would call it: only the project
// (and a private /tmp) is writable, no network, no secrets, and ordinary project work still runs.
import fs from "node:fs";
import { createServer, type Server } from "node:http";
import net, { type AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { makeCtx, project, type TestContext } from "./ctx.js";
import { callTool } from "./call.js";
import { sandboxProblem } from "../../src/tools/shell/sandbox.js";

function sandboxed(dir: string): TestContext {
  const ctx = makeCtx(dir);
  ctx.config.sandbox = "workspace-write";
  return ctx;
}

describe("the shell sandbox (bubblewrap)", () => {
  const cleanups: (() => void)[] = [];
  afterEach(() => {
    for (const c of cleanups.splice(0)) c();
  });

  beforeAll(() => {
    // .ci/run installs bubblewrap; a machine without it must say so, not skip silently.
    expect(sandboxProblem()).toBeUndefined();
  });

  it("refuses AF_UNIX sockets (a host service's socket file), and keeps socketpair for a command's own pipes", async () => {
    const dir = project();
    // Outside /tmp (private inside): a read-only bind would still leave this socket connectable.
    const host = fs.mkdtempSync("/var/tmp/agent0-sock-");
    cleanups.push(() => fs.rmSync(host, { recursive: true, force: true }));
    let connections = 0;
    const server = net.createServer((s) => {
      connections++;
      s.on("error", () => undefined).end();
    });
    await new Promise<void>((r) => server.listen(path.join(host, "s.sock"), r));
    cleanups.push(() => server.close());
    const command =
      `python3 -c "import socket; a,b=socket.socketpair(); print('pair ok'); ` +
      `s=socket.socket(socket.AF_UNIX); s.connect('${host}/s.sock'); print('CONNECTED')"`;
    const r = await callTool(sandboxed(dir), "run_shell_command", { command });
    expect(connections).toBe(0);
    expect(r.content).toContain("pair ok");
    expect(r.content).toContain("PermissionError: [Errno 1] Operation not permitted");
  });

  it("refuses io_uring, which could open and connect a socket without socket()", async () => {
    const command =
      `python3 -c "import ctypes, os; libc = ctypes.CDLL(None, use_errno=True); p = ctypes.create_string_buffer(120); ` +
      `fd = libc.syscall(425, 4, p); print('io_uring', fd, os.strerror(ctypes.get_errno()) if fd < 0 else 'open')"`;
    const r = await callTool(sandboxed(project()), "run_shell_command", { command });
    expect(r.content).toContain("io_uring -1 Operation not permitted");
  });

  it("cannot write outside the project, but can write inside it and in a private /tmp", async () => {
    const dir = project();
    const outside = fs.mkdtempSync(path.join(os.tmpdir(), "agent0-outside-"));
    cleanups.push(() => fs.rmSync(outside, { recursive: true, force: true }));
    const canary = path.join(outside, "PWNED");
    const home = path.join(os.homedir(), `agent0-sandbox-canary-${process.pid}`);
    const command = `touch ${canary}; touch ${home}; echo made > inside.txt; echo t > /tmp/scratch && cat /tmp/scratch`;
    const r = await callTool(sandboxed(dir), "run_shell_command", { command });
    expect(fs.existsSync(canary)).toBe(false);
    expect(fs.existsSync(home)).toBe(false);
    expect(r.content).toMatch(/Read-only file system|Permission denied|No such file/);
    expect(fs.readFileSync(path.join(dir, "inside.txt"), "utf8")).toBe("made\n");
    expect(r.content.trim().endsWith("t")).toBe(true);
    // The private /tmp is gone with the command.
    expect(fs.existsSync("/tmp/scratch") && fs.readFileSync("/tmp/scratch", "utf8") === "t\n").toBe(false);
  });

  it("cannot reach a server on 127.0.0.1", async () => {
    let hits = 0;
    const server: Server = createServer((_req, res) => {
      hits++;
      res.end("REACHED");
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    cleanups.push(() => server.close());
    const port = (server.address() as AddressInfo).port;
    const command = `node -e "fetch('http://127.0.0.1:${port}/').then(r => r.text()).then(t => console.log('got', t), e => console.log('blocked', e.cause?.code ?? e.message))"`;
    const r = await callTool(sandboxed(project()), "run_shell_command", { command });
    expect(r.content).toContain("blocked");
    expect(r.content).not.toContain("REACHED");
    expect(hits).toBe(0);
  });

  it("does not see GITHUB_TOKEN (nor through /proc)", async () => {
    process.env.GITHUB_TOKEN = "ghp_SandboxCanary0123456789";
    cleanups.push(() => delete process.env.GITHUB_TOKEN);
    const ctx = sandboxed(project());
    // The approval masks nothing here: read what the command printed before masking.
    const r = await callTool(ctx, "run_shell_command", {
      command: 'echo "token=[$GITHUB_TOKEN]"; cat /proc/1/environ | tr "\\0" "\\n" | grep -c GITHUB_TOKEN || true',
    });
    expect(r.content).toContain("token=[]");
    expect(r.content).not.toContain("****");
    expect(r.content.trim().split("\n").at(-1)).toBe("0");
  });

  it("still runs npm-test-like work inside the project", async () => {
    const dir = project({
      "package.json": JSON.stringify({ name: "p", version: "1.0.0", scripts: { test: "node test.js" } }),
      "test.js":
        "const fs = require('fs'); fs.mkdirSync('build', { recursive: true }); fs.writeFileSync('build/out.txt', 'ok');" +
        " fs.writeFileSync(require('os').tmpdir() + '/t.txt', 'x'); console.log('3 passed, 0 failed');",
    });
    const r = await callTool(sandboxed(dir), "run_shell_command", { command: "npm test 2>&1 | grep -v 'npm warn'" });
    expect(r.content).toContain("3 passed, 0 failed");
    expect(r.content.startsWith("exit code 0")).toBe(true);
    expect(fs.readFileSync(path.join(dir, "build", "out.txt"), "utf8")).toBe("ok");
  });

  it("asks before running a command outside the sandbox (unsandboxed: true)", async () => {
    const { createApprover } = await import("../../src/agent/approval.js");
    const ctx = sandboxed(project());
    ctx.config.permissionMode = "auto-edit";
    ctx.config.interactive = true;
    const asked: string[] = [];
    const approve = createApprover(
      ctx.config,
      async (req) => {
        asked.push(req.why ?? "");
        return { decision: "deny" };
      },
      () => {},
    );
    const inside = await approve({
      tool: "run_shell_command",
      kind: "shell",
      args: { command: "make" },
      preview: "make",
    });
    expect(inside).toEqual({ ok: true });
    const outside = await approve({
      tool: "run_shell_command",
      kind: "shell",
      args: { command: "curl example.com", unsandboxed: true },
      preview: "curl example.com",
    });
    expect(outside.ok).toBe(false);
    expect(asked).toEqual(["The model asks to run this outside the sandbox (network, writes outside the project)."]);
  });
});
