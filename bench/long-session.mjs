// 2,000 turns through the real worker, the pure UI model (update/view) and the session file:
// resident memory must stay flat (issue 8).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { spawn } from "node:child_process";
import { once } from "node:events";
import { ROOT } from "./tui.mjs";

const dist = (p) => import(pathToFileURL(path.join(ROOT, "dist", p)).href);

/** `turns` measured turns after `warmup` turns (V8 sizes its heaps during the first few hundred). */
export async function benchLongSession({ turns = 2000, warmup = 500 } = {}) {
  const { AgentHandle } = await dist("ui/runtime/agent-handle.js");
  const { init, update } = await dist("ui/update/index.js");
  const { view } = await dist("ui/view/index.js");
  const { SessionWriter } = await dist("session/writer.js");
  const child = spawn(
    process.execPath,
    [path.join(ROOT, "bench", "fake-process.mjs"), "Sure — **done**. Here is a short answer with `code`."],
    { stdio: ["pipe", "pipe", "inherit"] },
  );
  const [line] = await once(child.stdout, "data");
  const fake = {
    url: JSON.parse(String(line)).url,
    close: async () => {
      child.stdin.end();
      await once(child, "exit");
    },
  };
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "agent0-bench-long-"));
  const writer = SessionWriter.create(dir, { cwd: dir, provider: "ollama", model: "m" });
  const config = {
    provider: "ollama",
    model: "m",
    host: fake.url,
    cwd: dir,
    systemPrompt: "You are agent0.",
    numCtx: 8192,
    numCtxCap: 32768,
    maxSteps: 50,
    outputLimit: 32000,
    permissionMode: "ask",
    allowedTools: [],
    toolProtocol: "native",
    idleTimeoutMs: 60000,
    interactive: true,
    dataDir: dir,
    configDir: dir,
  };
  let model = init({ width: 100, height: 40, now: Date.now(), config, sessionId: "bench" });
  let resolveDone;
  const agent = new AgentHandle((event) => {
    let cmds;
    [model, cmds] = update(model, { type: "agent", event });
    for (const c of cmds) if (c.type === "session-append") writer.append(c.message);
    if (event.type === "done") resolveDone();
  });
  const rss = () => {
    globalThis.gc?.();
    return process.memoryUsage().rss / 1024 / 1024;
  };
  const heap = () => process.memoryUsage().heapUsed / 1024 / 1024;
  let heapStart = 0;
  let start = 0;
  for (let t = 0; t < warmup + turns; t++) {
    const done = new Promise((r) => (resolveDone = r));
    let cmds;
    [model, cmds] = update(model, { type: "paste", text: `question ${t}` });
    [model, cmds] = update(model, { type: "key", key: { name: "enter" } });
    for (const c of cmds) {
      if (c.type === "session-append") writer.append(c.message);
      // The conversation is trimmed as compaction would, so the request size stays bounded.
      if (c.type === "worker" && c.command.type === "run")
        agent.send({ ...c.command, conversation: c.command.conversation.slice(-20) });
    }
    // A run that never ends (a changed Cmd or event shape) fails the bench instead of hanging it.
    let timer;
    await Promise.race([
      done,
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`long session: turn ${t} got no "done" within 30 s`)), 30_000);
      }),
    ]).finally(() => clearTimeout(timer));
    [model] = update(model, { type: "tick", now: Date.now() });
    view(model);
    if (process.env.AGENT0_BENCH_VERBOSE && t % 250 === 0)
      process.stderr.write(`    turn ${t}: rss ${rss().toFixed(0)} MB\n`);
    if (t === warmup - 1) {
      start = rss();
      heapStart = heap();
    }
  }
  const end = rss();
  const heapEnd = heap();
  await agent.close();
  writer.close();
  await fake.close();
  fs.rmSync(dir, { recursive: true, force: true });
  return {
    rss_start_mb: start,
    rss_end_mb: end,
    heap_start_mb: heapStart,
    heap_end_mb: heapEnd,
    entries: model.entries.length,
  };
}
