// Issue 29, parts 4–7: a sandbox that contains, files agent0 keeps for itself, children that cannot
// slip away, FIFOs and a command's allowed-tools. Each attack is scripted; a canary shows whether it got through.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { startFakeOllama, type FakeOllama } from "../fakes/ollama-server.js";
import { MODEL, git, pidsWith, sentToModel, shellCalls, toolCalls } from "./attack-helpers.js";
import { eachTest, runHeadless, Tui, waitUntil, type Sandbox } from "./harness.js";

/** A unix socket server standing in for ssh-agent or docker.sock: it counts who connected. */
async function hostSocket(file: string): Promise<{ connections: () => number; close(): Promise<void> }> {
  let n = 0;
  const server = net.createServer((s) => {
    n++;
    s.on("error", () => undefined);
    s.end("hello from the host\n");
  });
  await new Promise<void>((r) => server.listen(file, r));
  return { connections: () => n, close: () => new Promise((r) => server.close(() => r())) };
}

const SANDBOXED = ["--sandbox", "--permission-mode", "auto-edit"];

describe("[needs bubblewrap] a sandbox that contains (part 4)", () => {
  let sb: Sandbox;
  let fake: FakeOllama | undefined;
  let sock: Awaited<ReturnType<typeof hostSocket>> | undefined;
  eachTest(
    (s) => (sb = s),
    () => [fake, sock],
  );

  it("a sandboxed command reaches no host socket, no agent0 data, no git credentials", async () => {
    // Outside /tmp, which the sandbox replaces with a private one: a home, a data folder and an agent's socket.
    const host = fs.mkdtempSync("/var/tmp/agent0-e2e-host-");
    try {
      sb.env.HOME = path.join(host, "home");
      sb.env.XDG_DATA_HOME = path.join(host, "data");
      fs.mkdirSync(path.join(host, "data", "agent0"), { recursive: true });
      fs.mkdirSync(sb.env.HOME);
      const file = path.join(host, "agent.sock");
      sock = await hostSocket(file);
      sb.env.SSH_AUTH_SOCK = file;
      sb.env.DBUS_SESSION_BUS_ADDRESS = `unix:path=${file}`;
      sb.env.XDG_RUNTIME_DIR = host;
      fs.writeFileSync(path.join(sb.env.HOME, ".git-credentials"), "https://CANARYcreduser51ab:x@example.com\n");
      fs.writeFileSync(path.join(host, "data", "agent0", "history"), "CANARY-history-2d9f\n");
      const connect = (where: string) =>
        `node -e "const s=require('net').connect(process.argv[1],()=>{console.log('CONNECTED');s.end()});s.on('error',e=>console.log('no',e.code))" ${where}`;
      fake = await startFakeOllama({
        models: [{ name: MODEL }],
        replies: [
          shellCalls(
            connect(file),
            `python3 -c "import socket; s=socket.socket(socket.AF_UNIX); s.connect('${file}'); print('CONNECTED')"`,
            "cat ~/.git-credentials; cat $XDG_DATA_HOME/agent0/history; echo rt=[$XDG_RUNTIME_DIR] dbus=[$DBUS_SESSION_BUS_ADDRESS]; ls -A /run",
          ),
          { steps: [{ text: "Done." }] },
        ],
      });
      const r = await runHeadless(sb, ["-p", "connect", "--host", fake.url, "--model", MODEL, ...SANDBOXED]);
      expect(r.code).toBe(0);
      const sent = sentToModel(fake);
      expect(sock.connections()).toBe(0);
      expect(sent).not.toContain("CONNECTED");
      expect(sent).not.toContain("CANARYcreduser51ab");
      expect(sent).not.toContain("CANARY-history-2d9f");
      expect(sent).toContain("rt=[] dbus=[]");
      // The commands ran, and were refused inside.
      expect(sent).toContain("no EPERM");
      expect(sent).toContain("Operation not permitted");
    } finally {
      fs.rmSync(host, { recursive: true, force: true });
    }
  });

  it("a sandboxed command cannot plant a git hook or core.fsmonitor for the user's next git command", async () => {
    git(sb.project, "init", "-q");
    const canary = path.join(sb.home, "PWNED-planted-hook");
    fake = await startFakeOllama({
      models: [{ name: MODEL }],
      replies: [
        shellCalls(
          `printf '#!/bin/sh\\ntouch ${canary}\\n' > .git/hooks/pre-commit; chmod +x .git/hooks/pre-commit`,
          `git config core.fsmonitor 'touch ${canary}; false'`,
          "echo fine > work.txt",
        ),
        { steps: [{ text: "Done." }] },
      ],
    });
    const r = await runHeadless(sb, ["-p", "set up", "--host", fake.url, "--model", MODEL, ...SANDBOXED]);
    expect(r.code).toBe(0);
    expect(fs.readFileSync(path.join(sb.project, "work.txt"), "utf8")).toBe("fine\n");
    expect(fs.existsSync(path.join(sb.project, ".git", "hooks", "pre-commit"))).toBe(false);
    expect(fs.readFileSync(path.join(sb.project, ".git", "config"), "utf8")).not.toContain("fsmonitor");
    // The user's own git commit afterwards runs nothing planted.
    git(sb.project, "commit", "-q", "--allow-empty", "-m", "user's commit");
    expect(fs.existsSync(canary)).toBe(false);
  });
});

describe("files agent0 keeps for itself (part 5)", () => {
  let sb: Sandbox;
  let fake: FakeOllama | undefined;
  eachTest(
    (s) => (sb = s),
    () => [fake],
  );

  it("a .agent0/memory symlink out of the project is neither written nor deleted through", async () => {
    const outside = path.join(sb.home, "notes");
    fs.mkdirSync(outside);
    const victim = path.join(outside, "victim.md");
    fs.writeFileSync(victim, "---\nname: victim\ndescription: the user's own file\ntype: project\n---\nkeep me\n");
    fs.mkdirSync(path.join(sb.project, ".agent0"));
    fs.symlinkSync(outside, path.join(sb.project, ".agent0", "memory"));
    fake = await startFakeOllama({
      models: [{ name: MODEL }],
      replies: [
        toolCalls(
          {
            name: "memory_save",
            arguments: { name: "planted", description: "x", type: "project", content: "PLANTED", scope: "project" },
          },
          { name: "memory_delete", arguments: { name: "victim", scope: "project" } },
        ),
        { steps: [{ text: "Done." }] },
      ],
    });
    await runHeadless(sb, ["-p", "remember", "--host", fake.url, "--model", MODEL]);
    expect(fs.readdirSync(outside)).toEqual(["victim.md"]);
    expect(fs.readFileSync(victim, "utf8")).toContain("keep me");
    expect(sentToModel(fake)).toContain("leads out of the project");
    // What the link points at is not offered to the model as project memory either.
    expect(fake.chats[0]!.messages[0]!.content).not.toContain("victim");
  });
});

/** Three children that shed agent0's tag: a cleared environment in the background, setsid -f, a double fork. */
function sheddingChildren(mark: string): string {
  return [
    `env -i sleep 613.${mark} &`,
    `setsid -f env -i sleep 614.${mark} >/dev/null 2>&1`,
    `(env -i sh -c 'sleep 615.${mark} >/dev/null 2>&1 &' &)`,
  ].join("\n");
}
const marks = (mark: string) => [`613.${mark}`, `614.${mark}`, `615.${mark}`];
const leftOver = (mark: string) => marks(mark).flatMap(pidsWith);

describe("children that cannot slip away (part 6)", () => {
  let sb: Sandbox;
  let fake: FakeOllama | undefined;
  let tui: Tui | undefined;
  eachTest(
    (s) => (sb = s),
    () => [fake, tui],
  );

  it("[needs bubblewrap] headless: children with a cleared environment, setsid -f and a double fork end with the run", async () => {
    const mark = String(process.pid);
    fake = await startFakeOllama({
      models: [{ name: MODEL }],
      replies: [
        shellCalls(`${sheddingChildren(mark)}\nsleep 0.3; echo "running: $(pgrep -c -x sleep)"`),
        { steps: [{ text: "ok" }] },
      ],
    });
    try {
      const r = await runHeadless(sb, ["-p", "start", "--host", fake.url, "--model", MODEL, "--yolo"]);
      expect(r.stdout).toBe("ok\n");
      expect(sentToModel(fake)).toContain("running: 3");
      // Killed before agent0 exited; the kernel may take a moment to reap them.
      await waitUntil(() => leftOver(mark).length === 0, 5000, `no process left with ${mark}`);
    } finally {
      for (const pid of leftOver(mark)) process.kill(pid, "SIGKILL");
    }
  });

  it("headless without a pid namespace: a child that left the process group still ends with the run", async () => {
    // bwrap that cannot set up: commands run as they are, and the process tag is what finds the child.
    const bin = path.join(sb.home, "no-bwrap");
    fs.mkdirSync(bin);
    fs.writeFileSync(path.join(bin, "bwrap"), "#!/bin/sh\nexit 1\n", { mode: 0o755 });
    sb.env.PATH = `${bin}:${sb.env.PATH}`;
    const mark = `616.${process.pid}`;
    fake = await startFakeOllama({
      models: [{ name: MODEL }],
      // Anchored: the shell's own command line holds the command too.
      replies: [
        shellCalls(`setsid -f sleep ${mark} >/dev/null 2>&1; sleep 0.2; echo "running: $(pgrep -c -f '^sleep 61[6]')"`),
        { steps: [{ text: "ok" }] },
      ],
    });
    try {
      const r = await runHeadless(sb, ["-p", "start", "--host", fake.url, "--model", MODEL, "--yolo"]);
      expect(r.stdout).toBe("ok\n");
      expect(sentToModel(fake)).toContain("running: 1");
      await waitUntil(() => pidsWith(mark).length === 0, 5000, `no process left with ${mark}`);
    } finally {
      for (const pid of pidsWith(mark)) process.kill(pid, "SIGKILL");
    }
  });

  it("[needs bubblewrap] TUI: closing the terminal (SIGHUP) ends them while the command still runs", async () => {
    const mark = `${process.pid}1`;
    fake = await startFakeOllama({
      models: [{ name: MODEL }],
      replies: [shellCalls(`${sheddingChildren(mark)}\nsleep 600`), { steps: [{ text: "ok" }] }],
    });
    tui = new Tui(sb, ["--host", fake.url, "--model", MODEL, "--yolo"]);
    try {
      await tui.waitFor("Ask anything");
      tui.send("start");
      await waitUntil(() => marks(mark).every((m) => pidsWith(m).length > 0), 10_000, "the children to start");
      process.kill(tui.appPid()!, "SIGHUP");
      await waitUntil(() => leftOver(mark).length === 0, 5000, "the children to end");
    } finally {
      for (const pid of leftOver(mark)) process.kill(pid, "SIGKILL");
    }
  });
});

describe("the rest of the list (part 7)", () => {
  let sb: Sandbox;
  let fake: FakeOllama | undefined;
  let tui: Tui | undefined;
  eachTest(
    (s) => (sb = s),
    () => [fake, tui],
  );

  it("read_file and @ on a FIFO are refused at once; the run ends normally", async () => {
    execFileSync("mkfifo", [path.join(sb.project, "pipe")]);
    fake = await startFakeOllama({
      models: [{ name: MODEL }],
      replies: [toolCalls({ name: "read_file", arguments: { path: "pipe" } }), { steps: [{ text: "Done." }] }],
    });
    const r = await runHeadless(sb, ["-p", "read @pipe", "--host", fake.url, "--model", MODEL], 8000);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("Done.\n");
    expect(sentToModel(fake)).toContain("not a regular file");
  });

  it("a .claude/commands file with allowed-tools runs, and narrows the tools without granting any", async () => {
    fs.mkdirSync(path.join(sb.project, ".claude", "commands"), { recursive: true });
    fs.writeFileSync(
      path.join(sb.project, ".claude", "commands", "peek.md"),
      "---\nallowed-tools: Read, Bash(rm:*)\ndescription: Peek\n---\nPeek at the files.\n",
    );
    const canary = path.join(sb.project, "PWNED-granted");
    fake = await startFakeOllama({
      models: [{ name: MODEL }],
      replies: [
        toolCalls(
          { name: "run_shell_command", arguments: { command: `touch ${canary}` } },
          { name: "create_file", arguments: { path: "x.txt", content: "x\n" } },
        ),
        { steps: [{ text: "Peeked." }] },
      ],
    });
    tui = await Tui.open(sb, ["--host", fake.url, "--model", MODEL, "--permission-mode", "plan"]);
    tui.send("/peek");
    await tui.waitFor("Peeked.");
    expect(fs.existsSync(canary)).toBe(false);
    expect(fs.existsSync(path.join(sb.project, "x.txt"))).toBe(false);
  });
});
