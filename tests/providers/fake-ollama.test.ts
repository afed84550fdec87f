// The fake itself must speak Ollama's wire: checked here with plain HTTP, not through our client.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startFakeOllama, type FakeOllama } from "../fakes/ollama-server.js";

let fake: FakeOllama;
beforeEach(async () => {
  fake = await startFakeOllama({ models: [{ name: "llama3.2", contextLength: 8192 }] });
});
afterEach(() => fake.close());

const post = (path: string, body: unknown) => fetch(fake.url + path, { method: "POST", body: JSON.stringify(body) });
const lines = async (res: Response) =>
  (await res.text())
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as Record<string, unknown>);

describe("fake ollama", () => {
  it("streams NDJSON chunks and a done line with six metrics; 'ok' when the script runs out", async () => {
    const res = await post("/api/chat", { model: "llama3.2", messages: [{ role: "user", content: "hi" }] });
    expect(res.headers.get("content-type")).toBe("application/x-ndjson");
    const [chunk, done] = await lines(res);
    expect(chunk).toMatchObject({ model: "llama3.2", message: { role: "assistant", content: "ok" }, done: false });
    expect(Object.keys(done!)).toEqual([
      "model",
      "created_at",
      "message",
      "done",
      "done_reason",
      "total_duration",
      "load_duration",
      "prompt_eval_count",
      "prompt_eval_duration",
      "eval_count",
      "eval_duration",
    ]);
    expect(fake.chats[0]!.messages).toEqual([{ role: "user", content: "hi" }]);
  });

  it("tool calls carry an id and a per-response index", async () => {
    fake.setReplies([
      {
        steps: [
          {
            toolCalls: [
              { name: "a", arguments: { x: 1 } },
              { name: "b", arguments: {} },
            ],
          },
        ],
      },
    ]);
    const [chunk] = await lines(
      await post("/api/chat", { model: "llama3.2", messages: [{ role: "user", content: "hi" }] }),
    );
    const calls = (chunk!.message as { tool_calls: { id: string; function: { index: number } }[] }).tool_calls;
    expect(calls.map((c) => c.function.index)).toEqual([0, 1]);
    expect(calls[0]!.id).toMatch(/^call_[a-z0-9]{8}$/);
  });

  it("answers a load request without counting it as a chat", async () => {
    const [line] = await lines(await post("/api/chat", { model: "llama3.2", messages: [] }));
    expect(line).toMatchObject({ done: true, done_reason: "load" });
    const [unload] = await lines(await post("/api/chat", { model: "llama3.2", messages: [], keep_alive: 0 }));
    expect(unload!.done_reason).toBe("unload");
    expect(fake.chats).toHaveLength(0);
  });

  it("speaks Ollama's errors", async () => {
    const missing = await post("/api/chat", { model: "x:1b", messages: [{ role: "user", content: "hi" }] });
    expect([missing.status, await missing.json()]).toEqual([404, { error: "model 'x:1b' not found" }]);
    const think = await post("/api/chat", {
      model: "llama3.2",
      think: true,
      messages: [{ role: "user", content: "hi" }],
    });
    expect([think.status, await think.json()]).toEqual([400, { error: '"llama3.2" does not support thinking' }]);
    const empty = await fetch(fake.url + "/api/chat", { method: "POST" });
    expect([empty.status, await empty.json()]).toEqual([400, { error: "missing request body" }]);
    const route = await fetch(fake.url + "/nope");
    expect([route.status, await route.text()]).toEqual([404, "404 page not found"]);
    const method = await fetch(fake.url + "/api/chat");
    expect(method.status).toBe(405);
  });

  it("reports version, tags, show and ps", async () => {
    expect(await (await fetch(fake.url + "/")).text()).toBe("Ollama is running");
    expect(await (await fetch(fake.url + "/api/version")).json()).toEqual({ version: "0.32.15" });
    const tags = (await (await fetch(fake.url + "/api/tags")).json()) as { models: { name: string }[] };
    expect(tags.models.map((m) => m.name)).toEqual(["llama3.2:latest"]);
    const show = (await (await post("/api/show", { model: "llama3.2" })).json()) as Record<string, unknown>;
    expect(show.model_info).toMatchObject({ "general.architecture": "llama", "llama.context_length": 8192 });
    expect(show.capabilities).toEqual(["completion", "tools"]);
    await (
      await post("/api/chat", {
        model: "llama3.2",
        messages: [{ role: "user", content: "hi" }],
        options: { num_ctx: 4096 },
      })
    ).text();
    const ps = (await (await fetch(fake.url + "/api/ps")).json()) as { models: { context_length: number }[] };
    expect(ps.models[0]!.context_length).toBe(4096);
  });

  it("non-streaming chat is one aggregated object", async () => {
    fake.setReplies([{ steps: [{ thinking: "hm" }, { text: "a" }, { text: "b" }] }]);
    const res = await post("/api/chat", {
      model: "llama3.2",
      stream: false,
      messages: [{ role: "user", content: "hi" }],
    });
    expect(await res.json()).toMatchObject({
      message: { role: "assistant", content: "ab", thinking: "hm" },
      done: true,
      done_reason: "stop",
    });
  });
});
