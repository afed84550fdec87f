// Issue 39, part 2: without bubblewrap, as the README promises. Every test here hides bwrap from the
// app (a PATH without it: harness.ts hideFromPath), so it runs on CI and on any machine that has
// bwrap installed: the process tag (tools/shell/process-tag.ts) and process groups are what hold.
// Headless and --sandbox here; the TUI's Esc, quit and SIGHUP in fallback-tui.test.ts.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { startFakeOllama, type FakeOllama } from "../fakes/ollama-server.js";
import { MODEL, alive, escapingChildren, pidsOf, sleepsOf, toolCalls } from "./attack-helpers.js";
import { eachTest, hideFromPath, runHeadless, waitUntil, type Sandbox } from "./harness.js";

describe("without bubblewrap: the process tag and process groups", () => {
  let sb: Sandbox;
  let fake: FakeOllama | undefined;
  eachTest(
    (s) => {
      sb = s;
      hideFromPath(sb, ["bwrap"]);
    },
    () => [fake],
  );

  const shellCall = (command: string) => toolCalls({ name: "run_shell_command", arguments: { command } });

  it("bwrap is really hidden: the app's PATH has no bwrap", () => {
    expect(() => execFileSync("sh", ["-c", "command -v bwrap"], { env: sb.env })).toThrow();
  });

  it("headless: the `&`, nohup and setsid children of a command end with the run", async () => {
    const { command, marks } = escapingChildren("71");
    fake = await startFakeOllama({
      models: [{ name: MODEL }],
      // The command counts its running children before it ends (pgrep -f matches argv joined by spaces).
      replies: [
        shellCall(`${command}\nsleep 0.3; pgrep -c -f '^sleep 60[123][.]${process.pid}71$' > started.txt`),
        { steps: [{ text: "started" }] },
      ],
    });
    const r = await runHeadless(sb, ["-p", "start the servers", "--host", fake.url, "--model", MODEL, "--yolo"]);
    const pids = pidsOf(marks);
    try {
      expect(r.stdout).toBe("started\n");
      expect(fs.readFileSync(path.join(sb.project, "started.txt"), "utf8").trim()).toBe("3");
      await waitUntil(() => pidsOf(marks).length === 0, 5000, "the command's children to end with the run");
    } finally {
      for (const pid of pids) if (alive(pid)) process.kill(pid, "SIGKILL");
    }
  });

  it("headless, as the README says: a child that clears its environment (env -i) outlives the run without namespaces", async () => {
    const mark = `604.${process.pid}9`;
    fake = await startFakeOllama({
      models: [{ name: MODEL }],
      replies: [shellCall(`setsid env -i sh -c 'exec sleep ${mark}' >/dev/null 2>&1 &`), { steps: [{ text: "ok" }] }],
    });
    const r = await runHeadless(sb, ["-p", "go", "--host", fake.url, "--model", MODEL, "--yolo"]);
    expect(r.code).toBe(0);
    // It was started in the background before the command's result: wait for it to be exec'd.
    await waitUntil(() => sleepsOf(mark).length === 1, 5000, "the env -i child");
    const pids = sleepsOf(mark);
    try {
      // The documented limit, asserted as documented (README, "Security model", "Without bubblewrap").
      expect(pids.length).toBe(1);
      expect(pids.every(alive)).toBe(true);
    } finally {
      for (const pid of pids) process.kill(pid, "SIGKILL");
    }
  });

  it("--sandbox refuses to start, with the reason", async () => {
    fake = await startFakeOllama({ models: [{ name: MODEL }] });
    const r = await runHeadless(sb, ["-p", "hi", "--host", fake.url, "--model", MODEL, "--sandbox"]);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/bwrap|bubblewrap/i);
    expect(fake.chats).toHaveLength(0);
  });
});
