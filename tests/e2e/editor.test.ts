import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { startFakeOllama, type FakeOllama } from "../fakes/ollama-server.js";
import { Tui, type Sandbox, eachTest } from "./harness.js";

const MODEL = { name: "qwen3:8b", contextLength: 40960 };

/** A stand-in for the user's editor: a script in the sandbox's home. */
function editor(sb: Sandbox, body: string): string {
  const file = path.join(sb.home, "fake-editor.sh");
  fs.writeFileSync(file, `#!/bin/sh\n${body}\n`, { mode: 0o755 });
  return file;
}

// Claude Code's Ctrl+G ("edit your prompt in your default text editor") and Codex's: $VISUAL, else $EDITOR.
describe("Ctrl+G end to end", () => {
  let fake: FakeOllama | undefined;
  let sb: Sandbox;
  let tui: Tui | undefined;
  eachTest(
    (s) => (sb = s),
    () => [tui, fake],
  );

  it("the editor's text becomes the input, and Enter sends it to the model", async () => {
    // The editor leaves the alternate screen's frame behind: it checks it got a real terminal.
    sb.env.EDITOR = editor(
      sb,
      `[ -t 0 ] || exit 9\nsed -i 's/draft/rewritten/' "$1"\nprintf 'with a second line\\n' >> "$1"`,
    );
    fake = await startFakeOllama({ models: [MODEL], replies: [{ steps: [{ text: "Got both lines." }] }] });
    tui = await Tui.open(sb, ["--host", fake.url, "--model", MODEL.name]);
    tui.type("a draft prompt");
    tui.press("C-g");
    await tui.waitFor("with a second line");
    const screen = tui.screen();
    expect(screen).toContain("a rewritten prompt");
    expect(screen).not.toContain("draft");
    tui.press("Enter");
    await tui.waitFor("Got both lines.");
    const sent = fake.chats
      .at(-1)!
      .messages.filter((m) => m.role === "user")
      .at(-1)!;
    expect(sent.content).toBe("a rewritten prompt\nwith a second line");
  });

  it("an editor that fails leaves the input as it was, with a notice", async () => {
    sb.env.EDITOR = editor(sb, `echo clobbered > "$1"; exit 1`);
    fake = await startFakeOllama({ models: [MODEL] });
    tui = await Tui.open(sb, ["--host", fake.url, "--model", MODEL.name]);
    tui.type("keep this text");
    tui.press("C-g");
    await tui.waitFor(/exited with 1: the input is kept as it\s+was/);
    const screen = tui.screen();
    expect(screen).toContain("keep this text");
    expect(screen).not.toContain("clobbered");
  });
});
