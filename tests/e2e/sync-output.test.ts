// Frames in synchronized output (DEC mode 2026): asked for with DECRQM, used only when the
// terminal answers that it knows the mode. term-proxy.py stands between the app and tmux,
// answering or not, and records what the app wrote.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { startFakeOllama, type FakeOllama } from "../fakes/ollama-server.js";
import { Tui, type Sandbox, eachTest, waitUntil } from "./harness.js";

const PROXY_BIN = path.join(path.dirname(fileURLToPath(import.meta.url)), "fixtures", "term-proxy-bin.mjs");
const BEGIN = "\x1b[?2026h";
const END = "\x1b[?2026l";

describe("synchronized output", () => {
  let fake: FakeOllama;
  let sb: Sandbox;
  let tui: Tui | undefined;
  eachTest(
    (s) => (sb = s),
    () => [tui, fake],
  );

  async function typedFrames(answer: boolean): Promise<string> {
    fake = await startFakeOllama({ models: [{ name: "qwen3:8b" }] });
    const log = path.join(sb.home, "tty.log");
    sb.env.TERM_PROXY_SYNC = answer ? "1" : "0";
    sb.env.TERM_PROXY_LOG = log;
    tui = new Tui(sb, ["--host", fake.url, "--model", "qwen3:8b"], { bin: PROXY_BIN });
    await tui.waitFor("Ask anything", 20_000);
    tui.type("hello there");
    await tui.waitFor("hello there");
    // A resize repaints the whole screen: that frame is bracketed too.
    tui.tmux("resize-window", "-t", "main", "-x", "90", "-y", "25");
    await tui.waitFor("hello there");
    tui.type("!");
    await tui.waitFor("hello there!");
    const written = () => (fs.existsSync(log) ? fs.readFileSync(log, "latin1") : "");
    await waitUntil(() => written().includes("\x1b[?2026$p"), 5000, "the mode query");
    return written();
  }

  it("brackets each frame when the terminal answers the mode query", async () => {
    const out = await typedFrames(true);
    const afterReply = out.slice(out.indexOf("\x1b[?2026$p"));
    const begins = afterReply.split(BEGIN).length - 1;
    const ends = afterReply.split(END).length - 1;
    // The frames painted for the typed keys and the resize, each opened and closed.
    expect(begins).toBeGreaterThanOrEqual(3);
    expect(ends).toBe(begins);
    // Every begin is closed before the next one opens.
    expect(afterReply.slice(afterReply.indexOf(BEGIN))).toMatch(
      /^(?:\x1b\[\?2026h(?:(?!\x1b\[\?2026[hl])[\s\S])*\x1b\[\?2026l(?:(?!\x1b\[\?2026h)[\s\S])*)+$/,
    );
  });

  it("writes no brackets when the terminal does not answer", async () => {
    const out = await typedFrames(false);
    expect(out).toContain("Ask anything");
    expect(out).not.toContain(BEGIN);
    expect(out).not.toContain(END);
  });
});
