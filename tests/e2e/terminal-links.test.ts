// The terminal's standards in the raw output, behind term-proxy.py (which logs what the app
// writes): a file path or URL in an answer is an OSC 8 link and OSC 9;4 shows progress during a
// run, where the terminal says it knows them, and neither is written where it does not. Split from
// terminal-standards.test.ts.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { startFakeOllama, type FakeOllama } from "../fakes/ollama-server.js";
import { TERM_PROXY_BIN, Tui, type Sandbox, eachTest } from "./harness.js";

const MODEL = "qwen3:8b";

describe("the terminal's standards", () => {
  let fake: FakeOllama;
  let sb: Sandbox;
  let tui: Tui | undefined;
  eachTest(
    (s) => (sb = s),
    () => [tui, fake],
  );

  const rawLog = () => path.join(sb.home, "tty.log");
  const written = () => (fs.existsSync(rawLog()) ? fs.readFileSync(rawLog(), "latin1") : "");

  it("a file path in an answer is an OSC 8 link; OSC 9;4 shows during the run and is cleared after", async () => {
    fake = await startFakeOllama({
      models: [{ name: MODEL }],
      replies: [{ steps: [{ text: "The entry point is src/main.ts:3 and docs at https://example.org/guide." }] }],
    });
    Object.assign(sb.env, { TERM_PROXY_LOG: rawLog(), FORCE_HYPERLINK: "1", TERM_PROGRAM: "ghostty" });
    tui = new Tui(sb, ["--host", fake.url, "--model", MODEL], { bin: TERM_PROXY_BIN });
    await tui.waitFor("Ask anything", 20_000);
    await tui.ask("where does it start?", "https://example.org/guide");
    const out = written();
    const fileLink = `\x1b]8;;file://${os.hostname()}${sb.project}/src/main.ts#3\x1b\\`;
    expect(out).toContain(fileLink);
    expect(out.slice(out.indexOf(fileLink))).toMatch(/^[^\n]*?src\/main\.ts:3(?:\x1b\[[0-9;]*m)*\x1b\]8;;\x1b\\/);
    expect(out).toContain("\x1b]8;;https://example.org/guide\x1b\\");
    const busy = out.indexOf("\x1b]9;4;3\x1b\\");
    expect(busy).toBeGreaterThan(-1);
    expect(out.indexOf("\x1b]9;4;0\x1b\\", busy)).toBeGreaterThan(busy);
  });

  it("without those terminals' signs, neither links nor progress are written", async () => {
    fake = await startFakeOllama({ models: [{ name: MODEL }], replies: [{ steps: [{ text: "see src/main.ts" }] }] });
    Object.assign(sb.env, { TERM_PROXY_LOG: rawLog() });
    tui = new Tui(sb, ["--host", fake.url, "--model", MODEL], { bin: TERM_PROXY_BIN });
    await tui.waitFor("Ask anything", 20_000);
    await tui.ask("hi", "see src/main.ts");
    expect(written()).not.toContain("\x1b]8;;file:");
    expect(written()).not.toContain("\x1b]9;4;");
  });
});
