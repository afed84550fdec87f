// `agent0 models`: list, pull and rm, as real processes against a fake of the Hugging Face hub's file
// endpoints ($HF_ENDPOINT, as huggingface_hub reads it). Two processes pulling one file download it once.
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { startFakeHub, type FakeHub } from "../fakes/hf-server.js";
import { closedFetchPort } from "../fakes/ports.js";
import { BIN, eachTest, runHeadless, waitUntil, type Sandbox } from "./harness.js";

const REPO = "tester/Tiny-Coder-GGUF";
const FILE = "tiny-coder-Q4_K_M.gguf";
const NAME = `hf:${REPO}:Q4_K_M`;

function bytes(n: number): Buffer {
  const b = Buffer.alloc(n);
  for (let i = 0; i < n; i++) b[i] = (i * 7919) % 251;
  return b;
}

/** A running `agent0 …` whose output the test reads as it comes. */
function start(sb: Sandbox, args: string[]) {
  const child: ChildProcess = spawn("node", [BIN, ...args], {
    cwd: sb.project,
    env: sb.env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const p = { child, stdout: "", stderr: "", code: undefined as number | null | undefined };
  child.stdout!.setEncoding("utf8").on("data", (d: string) => (p.stdout += d));
  child.stderr!.setEncoding("utf8").on("data", (d: string) => (p.stderr += d));
  const exited = new Promise<number | null>((r) => child.on("close", (code) => r((p.code = code))));
  return Object.assign(p, { exited, kill: () => child.kill("SIGKILL") });
}

describe("agent0 models", () => {
  let sb: Sandbox;
  let hub: FakeHub | undefined;
  const procs: { kill(): void }[] = [];
  eachTest(
    (s) => (sb = s),
    () => [hub, ...procs.splice(0)],
  );
  const modelsDir = () => path.join(sb.home, ".local", "share", "agent0", "models");

  it("two processes pulling the same model: one downloads, the other waits and uses its file", async () => {
    const data = bytes(3 << 20);
    hub = await startFakeHub([{ repo: REPO, name: FILE, bytes: data, holdAt: 0.5 }]);
    sb.env.HF_ENDPOINT = hub.url;
    const a = start(sb, ["models", "pull", `hf:${REPO}`]);
    procs.push(a);
    await hub.held();
    const b = start(sb, ["models", "pull", `hf:${REPO}`]);
    procs.push(b);
    await waitUntil(() => b.stderr.includes("is downloading this file: waiting"), 20_000, "the second to wait");
    expect(b.stderr).toContain(`Another agent0 (pid ${a.child.pid})`);
    hub.release();
    expect(await a.exited).toBe(0);
    expect(await b.exited).toBe(0);
    const file = path.join(modelsDir(), "tester--Tiny-Coder-GGUF", FILE);
    expect(a.stdout).toMatch(new RegExp(`^Downloaded: ${file} \\(3 MB, sha256 [0-9a-f]{64} checked\\)`));
    expect(b.stdout).toBe(`Already downloaded: ${file} (3 MB)\n`);
    expect(fs.readFileSync(file).equals(data)).toBe(true);
    // One download: the bytes went out once, to one GET.
    expect(hub.bytesSent()).toBe(data.length);
    expect(hub.requests.filter((r) => r.path.startsWith("/cdn/")).length).toBe(1);
    expect(fs.readdirSync(path.dirname(file))).toEqual([FILE]);
  });

  it("lists the catalogue and the downloaded file with sizes and the folder; rm deletes it", async () => {
    hub = await startFakeHub([{ repo: REPO, name: FILE, bytes: bytes(1 << 20) }]);
    sb.env.HF_ENDPOINT = hub.url;
    const pulled = await runHeadless(sb, ["models", "pull", NAME]);
    expect(pulled.code).toBe(0);
    // Not a terminal: a line per tenth, with size, speed and time left.
    expect(pulled.stderr).toMatch(/1 MB of 1 MB {2}100 % {2}\S+ \S*B\/s {2}0 s left/);
    const list = await runHeadless(sb, ["models"]);
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(/^qwen2\.5-coder:3b +2\.1 GB +- +/m);
    expect(list.stdout).toMatch(new RegExp(`^${NAME.replace(/[.:/]/g, "\\$&")} +1 MB +downloaded +${FILE}$`, "m"));
    expect(list.stdout).toContain(`Models are kept in ${modelsDir()}`);
    const rm = await runHeadless(sb, ["models", "rm", NAME]);
    expect(rm.code).toBe(0);
    expect(rm.stdout).toContain("(1 MB freed)");
    expect((await runHeadless(sb, ["models"])).stdout).not.toContain(NAME);
  });

  it("offline: pull fails with what to run where a network is, exit 1", async () => {
    sb.env.HF_ENDPOINT = `http://127.0.0.1:${await closedFetchPort()}`;
    const r = await runHeadless(sb, ["models", "pull", "qwen2.5-coder:1.5b"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("Where a network is, run: agent0 models pull qwen2.5-coder:1.5b");
  });
});
