// `agent0 -p … --output-format stream-json | head -1`: the reader goes away while the answer still
// streams. The run must end as a closed pipe ends a Unix tool (quietly), with the session saved and
// its lock released, so the next `--resume` can write to it.
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { BIN, eachTest, filesUnder, waitUntil, type Sandbox } from "./harness.js";
import { startFakeOllama, type FakeOllama } from "../fakes/ollama-server.js";

describe("a reader that closes the pipe early", () => {
  let sb: Sandbox;
  let fake: FakeOllama | undefined;
  eachTest(
    (s) => (sb = s),
    () => [fake],
  );

  it("stream-json | head -1: the process ends, the session is saved, and no lock is left", async () => {
    const words = Array.from({ length: 400 }, (_, i) => ({ text: `word${i} ` }));
    fake = await startFakeOllama({ models: [{ name: "qwen3:8b" }], replies: [{ steps: words }] });
    const child = spawn(
      "node",
      [BIN, "--host", fake.url, "--model", "qwen3:8b", "-p", "hi", "--output-format", "stream-json"],
      {
        cwd: sb.project,
        env: sb.env,
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    // What `head -1` does: read the first line, then close the read end of the pipe.
    await new Promise<void>((resolve) => {
      let got = "";
      child.stdout.setEncoding("utf8").on("data", (d: string) => {
        got += d;
        if (got.includes("\n")) {
          child.stdout.destroy();
          resolve();
        }
      });
    });
    const code = await new Promise<number | null>((resolve) => child.on("close", (c) => resolve(c)));
    const sessions = path.join(sb.home, ".local", "share", "agent0", "sessions");
    const files = filesUnder(sessions);
    expect(files.filter((f) => f.endsWith(".jsonl"))).toHaveLength(1);
    expect(files.filter((f) => f.endsWith(".lock"))).toEqual([]);
    expect(stderr).not.toMatch(/EPIPE|Unhandled|at .*\.js:\d+/);
    expect(code).toBe(141);
    expect(
      fs.readFileSync(
        files.find((f) => f.endsWith(".jsonl"))!,
        "utf8",
      ),
    ).toContain('"hi"');
  });

  it("agent0 sessions | head -1: the listing ends quietly, as a Unix tool's would", async () => {
    // Enough sessions that the listing outgrows the pipe once its reader has gone.
    const sessions = path.join(sb.home, ".local", "share", "agent0", "sessions");
    fs.mkdirSync(sessions, { recursive: true });
    for (let i = 0; i < 1500; i++) {
      const id = `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`;
      const at = "2026-11-26T10:00:00.000Z";
      const header = {
        type: "session",
        version: 1,
        id,
        created: at,
        cwd: sb.project,
        provider: "ollama",
        model: "qwen3:8b",
        title: `session ${i}`,
      };
      const message = { type: "message", at, message: { role: "user", content: `session number ${i}` } };
      fs.writeFileSync(path.join(sessions, `${id}.jsonl`), `${JSON.stringify(header)}\n${JSON.stringify(message)}\n`);
    }
    // The shell's own pipe and head (node's "pipe" is a socket pair that takes the whole listing).
    const child = spawn("bash", ["-c", `node "$0" sessions | head -1; echo "status \${PIPESTATUS[0]}" >&2`, BIN], {
      cwd: sb.project,
      env: sb.env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    await new Promise((resolve) => child.on("close", resolve));
    expect(stdout).toMatch(/^ID\s+UPDATED[^\n]*\n$/);
    expect(stderr).toBe("status 141\n");
  });

  it("Ctrl+C during -p: the answer so far is saved and the lock let go", async () => {
    fake = await startFakeOllama({
      models: [{ name: "qwen3:8b" }],
      replies: [{ steps: [{ text: "The first half of the answer" }, { hang: true }] }],
    });
    // stream-json prints each event as it comes: the first half is seen arriving, then interrupted
    // well before the streamed text's own save (every 2 s), so the interruption must save it.
    const args = ["--host", fake.url, "--model", "qwen3:8b", "-p", "hi", "--output-format", "stream-json"];
    const child = spawn("node", [BIN, ...args], { cwd: sb.project, env: sb.env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
    const sessions = path.join(sb.home, ".local", "share", "agent0", "sessions");
    const session = () => filesUnder(sessions).find((f) => f.endsWith(".jsonl"));
    const lock = () => filesUnder(sessions).find((f) => f.endsWith(".lock"));
    await waitUntil(() => stdout.includes("The first half of the answer"), 15_000, "the first half");
    expect(lock()).toBeDefined();
    child.kill("SIGINT");
    const code = await new Promise<number | null>((resolve) => child.on("close", (c) => resolve(c)));
    expect(code).toBe(130);
    expect(lock()).toBeUndefined();
    expect(fs.readFileSync(session()!, "utf8")).toContain("The first half of the answer");
  });
});
