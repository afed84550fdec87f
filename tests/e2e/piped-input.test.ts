// Piped stdin in `-p` mode (issue 31, part 9): `cat error.log | agent0 -p "why does this fail?"`.
// The forms are the ones the other agents document: Claude Code's `cat logs.txt | claude -p "explain"`
// (docs.anthropic.com/en/docs/claude-code/cli-reference), Codex's `exec -` reading the prompt from
// stdin (developers.openai.com/codex/cli/reference), gemini-cli's `cat README.md | gemini -p "..."`
// (docs/cli/headless.md). An empty or binary stdin gets a clear message instead of being dropped.
import { describe, expect, it } from "vitest";
import { startFakeOllama, type FakeOllama } from "../fakes/ollama-server.js";
import { eachTest, runHeadless, sessionFiles, type Sandbox } from "./harness.js";
import fs from "node:fs";

const MODEL = "qwen3:8b";

describe("piped stdin with -p", () => {
  let sb: Sandbox;
  let fake: FakeOllama | undefined;
  eachTest(
    (s) => (sb = s),
    () => [fake],
  );
  const args = () => ["--host", fake!.url, "--model", MODEL];

  it("the piped text reaches the model after the prompt, with its size stated", async () => {
    fake = await startFakeOllama({ models: [{ name: MODEL }], replies: [{ steps: [{ text: "A null pointer." }] }] });
    const log = "Error: Cannot read properties of undefined (reading 'id')\n    at handler (src/app.js:12:7)\n";
    const r = await runHeadless(sb, ["-p", "why does this fail?", ...args()], 20_000, log);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("A null pointer.\n");
    const user = fake.chats[0]!.messages.find((m) => m.role === "user")!;
    expect(user.content).toBe(`why does this fail?\n\n<stdin size="${log.length} bytes, 2 lines">\n${log}</stdin>`);
    // The session shows what the user typed, and that stdin went with it.
    const saved = fs.readFileSync(sessionFiles(sb)[0]!, "utf8");
    expect(saved).toContain(`[piped stdin: ${log.length} bytes, 2 lines]`);
  });

  it("a large stdin is cut like a large attachment, and the user is told", async () => {
    fake = await startFakeOllama({ models: [{ name: MODEL }] });
    const diff = "+added line of a big diff\n".repeat(4000); // 104,000 characters
    const r = await runHeadless(sb, ["-p", "review this", ...args()], 20_000, diff);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(
      "warning: stdin is 101.6 KB, 4000 lines: only its first 50000 characters were attached.",
    );
    const user = fake.chats[0]!.messages.find((m) => m.role === "user")!;
    expect(user.content).toContain("[... cut: stdin has 104000 characters; the first 50000 are above]");
    expect(user.content.length).toBeLessThan(51_000);
  });

  it("binary stdin is refused with a clear error and nothing is sent", async () => {
    fake = await startFakeOllama({ models: [{ name: MODEL }] });
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52]);
    const r = await runHeadless(sb, ["-p", "what is this?", ...args()], 20_000, png);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("stdin is binary data (16 bytes): only text can go with the prompt. Nothing was sent.");
    expect(fake.chats).toHaveLength(0);
  });

  it("an empty pipe is said, and the prompt still runs", async () => {
    fake = await startFakeOllama({ models: [{ name: MODEL }] });
    const r = await runHeadless(sb, ["-p", "review this", ...args()], 20_000, "");
    expect(r.code).toBe(0);
    expect(r.stderr).toBe("notice: stdin is empty: only the prompt is sent.\n");
    expect(fake.chats[0]!.messages.find((m) => m.role === "user")!.content).toBe("review this");
  });

  it("no stdin at all (/dev/null, as scripts and cron give) is not input", async () => {
    fake = await startFakeOllama({ models: [{ name: MODEL }] });
    const r = await runHeadless(sb, ["-p", "hello", ...args()]);
    expect(r.stderr).toBe("");
    expect(fake.chats[0]!.messages.find((m) => m.role === "user")!.content).toBe("hello");
  });
});
