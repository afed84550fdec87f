// The built Ollama provider asks about a model, streams a chat and warms a model without loading
// Node's fetch (undici): loading it costs ~50 ms of the worker's start, before its first request.
// Checked in a fresh process, whose list of loaded internal modules says what ran.
import { execFile } from "node:child_process";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, expect, it } from "vitest";
import { startFakeOllama, type FakeOllama } from "../fakes/ollama-server.js";
import { ROOT } from "./harness.js";

let fake: FakeOllama | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

it("a show, a streamed chat and a load request: the answers arrive and undici is never loaded", async () => {
  fake = await startFakeOllama({
    models: [{ name: "qwen3:8b", contextLength: 40960 }],
    replies: [{ steps: [{ text: "hello " }, { text: "there" }] }],
  });
  const provider = pathToFileURL(path.join(ROOT, "dist", "providers", "ollama", "provider.js")).href;
  const script = `
    const { createOllamaProvider } = await import(${JSON.stringify(provider)});
    const p = createOllamaProvider({ host: ${JSON.stringify(fake.url)} });
    const info = await p.modelInfo("qwen3:8b");
    let text = "";
    for await (const e of p.stream({ model: "qwen3:8b", messages: [{ role: "user", content: "hi" }], tools: [],
      numCtx: 8192, idleTimeoutMs: 5000, signal: new AbortController().signal })) if (e.type === "text") text += e.delta;
    await p.warm("qwen3:8b", 8192);
    const undici = process.moduleLoadList.filter((m) => m.includes("undici"));
    console.log(JSON.stringify({ contextLength: info.contextLength, text, undici }));`;
  // Asynchronously: the fake server runs in this process.
  const out = await new Promise<string>((resolve, reject) =>
    execFile(process.execPath, ["--input-type=module", "-e", script], { cwd: ROOT }, (err, stdout, stderr) =>
      err ? reject(new Error(`${err.message}\n${stderr}`)) : resolve(stdout),
    ),
  );
  expect(JSON.parse(out)).toEqual({ contextLength: 40960, text: "hello there", undici: [] });
  expect(fake.requests.map((r) => r.path)).toEqual(["/api/show", "/api/chat", "/api/chat"]);
});
