// A generated 50,000-file git repository (bench/scale-repo.mjs: made once in the temp folder and
// reused, so nothing here writes into it). The report: `@` +
// a deep path found nothing past the first 20,000 paths, and a grep over a big tree must come
// back capped and summarised.
import { describe, expect, it } from "vitest";
import { scaleRepo } from "../../bench/scale-repo.mjs";
import { startFakeOllama, type FakeOllama } from "../fakes/ollama-server.js";
import { Tui, type Sandbox, eachTest } from "./harness.js";

const FILES = 50_000;
const DEEP = "pkg0042/src/mod7/file42.ts";

describe("a 50,000-file repository", () => {
  let fake: FakeOllama;
  let sb: Sandbox;
  let tui: Tui | undefined;
  eachTest(
    (s) => (sb = s),
    () => [tui, fake],
  );

  it("completes a deep path with @, and a grep over the tree comes back capped with its count", async () => {
    const repo = await scaleRepo(FILES);
    fake = await startFakeOllama({
      // Room for the tool's page of matches without compaction.
      models: [{ name: "qwen3:8b", contextLength: 40_960 }],
      replies: (_req, i) =>
        i === 0
          ? { steps: [{ toolCalls: [{ name: "grep_files", arguments: { pattern: "TODO\\(scale\\)" } }] }] }
          : { steps: [{ text: "Found them." }] },
    });
    tui = new Tui({ ...sb, project: repo }, ["--host", fake.url, "--model", "qwen3:8b"], { width: 120, height: 30 });
    await tui.waitFor("Ask anything", 20_000);
    tui.type("explain @pkg0042/src/mod7/file42");
    await tui.waitFor(`@${DEEP}`, 20_000);
    tui.press("Tab");
    await tui.waitFor(`explain @${DEEP}`);

    tui.press("C-u");
    tui.send("where are the TODOs?");
    await tui.waitFor("Found them.", 60_000);
    const toolMessage = fake.chats.at(-1)!.messages.find((m) => m.role === "tool")!;
    const lines = String(toolMessage.content).split("\n");
    // One file in 16 holds the line: 3,125 matches, the first 200 shown, and the count (a floor,
    // "+", when a loaded machine made counting take longer than its budget).
    expect(lines).toHaveLength(201);
    expect(lines[0]).toMatch(/^pkg\d{4}\/src\/mod\d\/file\d+\.ts:\d+: \/\/ TODO\(scale\)/);
    expect(lines[200]).toMatch(/^\[first 200 of (3,125|[\d,]+\+) matches; narrow the pattern or the path\]$/);
  }, 120_000);
});
