// Never lose a line, kill -9 in the middle of an answer: what had streamed is in the session file
// and comes back on resume, marked interrupted (the rest of session safety: session-safety.test.ts).
import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { loaded, MODEL } from "./session-files.js";
import { startFakeOllama, type FakeOllama } from "../fakes/ollama-server.js";
import { eachTest, sessionFiles, Tui, waitUntil, type Sandbox } from "./harness.js";

describe("never lose a line", () => {
  let sb: Sandbox;
  let fake: FakeOllama | undefined;
  let tui: Tui | undefined;
  let resumed: Tui | undefined;
  eachTest(
    (s) => (sb = s),
    () => [tui, resumed, fake],
  );

  it("kill -9 in the middle of an answer: resume shows what had streamed, marked interrupted", async () => {
    // 25 words a second for 16 s.
    const words = Array.from({ length: 400 }, (_, i) => ({ text: `word${i} `, delayMs: 40 }));
    fake = await startFakeOllama({ models: [MODEL], replies: [{ steps: words }] });
    tui = new Tui(sb, ["--host", fake.url, "--model", MODEL.name]);
    await tui.waitFor("Ask anything");
    tui.type("tell me a long story");
    tui.press("Enter");
    await tui.waitFor("word0");
    // Killed once the session file holds the first second of text (what streams is saved as it comes).
    await waitUntil(
      () => sessionFiles(sb).some((f) => fs.readFileSync(f, "utf8").includes("word24 ")),
      15_000,
      "word24 saved",
    );
    process.kill(tui.appPid()!, "SIGKILL");
    await tui.waitFor("[exit 137]");

    const [file] = sessionFiles(sb);
    const s = loaded(file!);
    expect(s.cutOff).toBe(true);
    const cut = s.messages.at(-1)!;
    expect(cut).toMatchObject({ role: "assistant", interrupted: true });
    // At least the first second of text (25 words).
    expect(cut.content).toMatch(/^word0 word1 word2 (word\d+ ){22,}/);

    resumed = new Tui(sb, ["--host", fake.url, "--model", MODEL.name, "--resume", s.header.id], {
      width: 120,
      height: 40,
    });
    const screen = await resumed.waitFor("cut off when agent0 stopped");
    expect(screen).toContain("interrupted");
    expect(screen).toContain("word24");
  });
});
