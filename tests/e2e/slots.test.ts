// Issue 43's check 5, end to end against a fake llama.cpp server: with two slots the user's
// conversation keeps one `id_slot` and a delegate's sub-agent another (so neither evicts the
// other's prompt cache, ggml-org/llama.cpp#13194); a turn whose `timings.cache_n` says the server
// re-read a long shared prefix gets one notice with the likely cause.
import { describe, expect, it } from "vitest";
import { createOpenAIProvider } from "../../src/providers/openai/provider.js";
import { startFakeOpenAI, type FakeOpenAI } from "../fakes/openai-server.js";
import { runHeadless, type Sandbox, eachTest } from "./harness.js";

const llamacpp = (slots: number) => ({ kind: "llamacpp" as const, model: "qwen.gguf", contextLength: 32768, slots });
const args = (fake: FakeOpenAI) => ["--provider", "openai", "--base-url", `${fake.url}/v1`, "--model", "qwen.gguf"];
const chatBodies = (fake: FakeOpenAI) =>
  fake.requests
    .filter((r) => r.path.endsWith("/chat/completions"))
    .map((r) => r.body as { id_slot?: number; messages: { role: string; content: string }[] });

describe("llama.cpp's slots and prompt cache", () => {
  let fake: FakeOpenAI | undefined;
  let sb: Sandbox;
  eachTest(
    (s) => (sb = s),
    () => [fake],
  );

  it("reads the slot count from /slots", async () => {
    fake = await startFakeOpenAI({ server: llamacpp(4) });
    const info = await createOpenAIProvider({ baseUrl: `${fake.url}/v1` }).modelInfo("qwen.gguf");
    expect(info).toMatchObject({ contextLength: 32768, slots: 4 });
  });

  it("two slots: the conversation's requests carry one id_slot, a delegate's another", async () => {
    fake = await startFakeOpenAI({
      server: llamacpp(2),
      replies: [
        { toolCalls: [{ name: "delegate", arguments: { task: "Count the files here and answer with the number." } }] },
        { text: "SUB: 0 files." },
        { text: "The sub-agent says 0 files." },
      ],
    });
    const r = await runHeadless(sb, ["-p", "delegate the count", "--yolo", ...args(fake)]);
    expect(r.stdout).toContain("The sub-agent says 0 files.");
    const bodies = chatBodies(fake);
    expect(bodies).toHaveLength(3);
    const [first, sub, last] = bodies;
    expect(first!.id_slot).toBe(0);
    expect(last!.id_slot).toBe(0);
    expect(sub!.messages.at(-1)!.content).toContain("Count the files here");
    expect(sub!.id_slot).toBe(1);
  }, 30_000);

  it("one slot: no id_slot is sent (the server picks, as before)", async () => {
    fake = await startFakeOpenAI({ server: llamacpp(1), replies: [{ text: "ok" }] });
    const r = await runHeadless(sb, ["-p", "hi", ...args(fake)]);
    expect(r.code).toBe(0);
    expect(chatBodies(fake).every((b) => !("id_slot" in b))).toBe(true);
  }, 30_000);

  it("a cache_n of 0 on a long shared prefix gives one notice, with the likely cause", async () => {
    fake = await startFakeOpenAI({
      server: llamacpp(1),
      replies: [
        { toolCalls: [{ name: "list_files", arguments: {} }], cacheN: 0 },
        // The second request extends the first by a tool call and its result, yet nothing was cached.
        { toolCalls: [{ name: "list_files", arguments: {} }], cacheN: 0 },
        { text: "Listed twice.", cacheN: 0 },
      ],
    });
    const r = await runHeadless(sb, ["-p", "list the files twice", "--yolo", ...args(fake)]);
    expect(r.stdout).toContain("Listed twice.");
    const notices = r.stderr.match(/re-read [\d,]+ of [\d,]+ prompt tokens that it should have had cached/g) ?? [];
    expect(notices).toHaveLength(1);
    expect(r.stderr).toContain("another client's request took the server's slot");
  }, 30_000);

  it("a warm cache gives no notice", async () => {
    fake = await startFakeOpenAI({
      server: llamacpp(1),
      replies: [
        { toolCalls: [{ name: "list_files", arguments: {} }], cacheN: 0 },
        { text: "Listed.", cacheN: 3000 },
      ],
    });
    const r = await runHeadless(sb, ["-p", "list the files", "--yolo", ...args(fake)]);
    expect(r.stdout).toContain("Listed.");
    expect(r.stderr).not.toContain("should have had cached");
  }, 30_000);
});
