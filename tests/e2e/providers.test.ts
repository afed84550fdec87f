import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { startFakeAnthropic, unauthorized as anthropic401, type FakeAnthropic } from "../fakes/anthropic-server.js";
import { startFakeOpenAI, unauthorized as openai401, type FakeOpenAI } from "../fakes/openai-server.js";
import { runHeadless, type Sandbox, eachTest, filesUnder } from "./harness.js";

const KEY = "sk-test-secret-key-123456";

describe("other providers, through their official SDKs, end to end", () => {
  let sb: Sandbox;
  let anthropic: FakeAnthropic | undefined;
  let openai: FakeOpenAI | undefined;
  eachTest(
    (s) => (sb = s),
    () => [anthropic, openai],
  );

  it("Anthropic: a tool-calling turn completes, and the key is never saved or logged", async () => {
    anthropic = await startFakeAnthropic({
      replies: [
        {
          blocks: [
            { text: "I'll create it." },
            { toolUse: { name: "create_file", input: { path: "notes.md", content: "# Notes\n" } } },
          ],
        },
        { blocks: [{ text: "Created notes.md." }] },
      ],
    });
    sb.env.ANTHROPIC_API_KEY = KEY;
    sb.env.ANTHROPIC_BASE_URL = anthropic.url;
    const r = await runHeadless(sb, ["-p", "make notes", "--model", "anthropic/claude-test", "--yolo"]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toBe("Created notes.md.");
    expect(fs.readFileSync(path.join(sb.project, "notes.md"), "utf8")).toBe("# Notes\n");
    const second = anthropic.requests.filter((q) => q.method === "POST").at(-1)!.body as {
      messages: { role: string; content: unknown }[];
    };
    expect(JSON.stringify(second.messages.at(-1))).toContain("tool_result");
    // The key was in use (the server got it), and the files the run wrote are there to read: the
    // session and the run log. None of them holds it.
    expect(
      anthropic.requests.filter((q) => q.method === "POST").some((q) => JSON.stringify(q.headers).includes(KEY)),
    ).toBe(true);
    const written = filesUnder(path.join(sb.env.XDG_DATA_HOME!, "agent0"));
    expect(written.filter((f) => f.endsWith(".jsonl"))).toHaveLength(1);
    expect(written.filter((f) => f.endsWith(".log"))).toHaveLength(1);
    expect(written.filter((f) => fs.readFileSync(f, "utf8").includes(KEY))).toEqual([]);
  });

  it("OpenAI-compatible: tool-call arguments split across chunks are put back together", async () => {
    openai = await startFakeOpenAI({
      replies: [
        {
          toolCalls: [{ name: "create_file", arguments: { path: "a.txt", content: "split across many chunks" } }],
          argChunkChars: 4,
        },
        { text: "Done." },
      ],
    });
    sb.env.OPENAI_API_KEY = KEY;
    const r = await runHeadless(sb, [
      "-p",
      "make a",
      "--provider",
      "openai",
      "--base-url",
      `${openai.url}/v1`,
      "--model",
      "local-model",
      "--yolo",
    ]);
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toBe("Done.");
    expect(fs.readFileSync(path.join(sb.project, "a.txt"), "utf8")).toBe("split across many chunks");
    const second = openai.requests.filter((q) => q.method === "POST").at(-1)!.body as {
      messages: { role: string; content: unknown }[];
    };
    expect(second.messages.every((m) => m.content !== null)).toBe(true);
    expect(second.messages.at(-1)!.role).toBe("tool");
  });

  it("a rejected key is a clear error naming the variable", async () => {
    anthropic = await startFakeAnthropic({ replies: [anthropic401()] });
    sb.env.ANTHROPIC_API_KEY = "sk-wrong-000000";
    sb.env.ANTHROPIC_BASE_URL = anthropic.url;
    let r = await runHeadless(sb, ["-p", "hi", "--model", "anthropic/claude-test"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("ANTHROPIC_API_KEY");
    openai = await startFakeOpenAI({ replies: [openai401()] });
    r = await runHeadless(sb, ["-p", "hi", "--provider", "openai", "--base-url", `${openai.url}/v1`, "--model", "m"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("OPENAI_API_KEY");
  });
});
