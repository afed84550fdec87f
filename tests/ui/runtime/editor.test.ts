import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { editorArgv, editorOf, editText } from "../../../src/ui/runtime/editor.js";
import { feed, key, newModel, typeText } from "../helpers.js";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

/** An executable sh script standing in for the user's editor. */
function script(body: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "agent0-editor-test-"));
  dirs.push(dir);
  const file = path.join(dir, "ed.sh");
  fs.writeFileSync(file, `#!/bin/sh\n${body}\n`, { mode: 0o755 });
  return file;
}

// Claude Code and Codex open $VISUAL, else $EDITOR (Claude Code's docs: "Ctrl+G: edit in your default text editor").
describe("Ctrl+G's editor", () => {
  it("prefers $VISUAL, then $EDITOR, then vi", () => {
    expect(editorOf({ VISUAL: "code --wait", EDITOR: "nano" })).toBe("code --wait");
    expect(editorOf({ VISUAL: " ", EDITOR: "nano" })).toBe("nano");
    expect(editorOf({})).toBe("vi");
  });

  it("splits plain words and hands anything else to sh with the file as $1", () => {
    expect(editorArgv("code --wait", "/t/p.md")).toEqual({ file: "code", args: ["--wait", "/t/p.md"] });
    expect(editorArgv("~/bin/ed", "/t/p.md")).toEqual({
      file: "/bin/sh",
      args: ["-c", '~/bin/ed "$1"', "sh", "/t/p.md"],
    });
  });

  it("gives back what the editor saved, without the newline it added", async () => {
    const ed = script(`printf 'second line\\n' >> "$1"`);
    const r = await editText("first line", { ...process.env, VISUAL: "", EDITOR: ed });
    expect(r).toEqual({ ok: true, text: "first line\nsecond line" });
  });

  it("runs an editor given with arguments", async () => {
    const ed = script(`sed -i "s/old/$1/" "$2"`);
    const r = await editText("the old text", { ...process.env, VISUAL: `${ed} new` });
    expect(r).toEqual({ ok: true, text: "the new text" });
  });

  it("keeps the input when the editor exits non-zero, and says so", async () => {
    const ed = script(`echo changed > "$1"; exit 3`);
    const r = await editText("keep me", { ...process.env, VISUAL: ed });
    expect(r).toEqual({ ok: false, error: `The editor (${ed}) exited with 3: the input is kept as it was.` });
  });

  it("says when there is no such editor", async () => {
    const r = await editText("keep me", { ...process.env, VISUAL: "/nonexistent/editor-xyz" });
    expect(r.ok).toBe(false);
    expect(!r.ok && r.error).toMatch(
      /The editor did not start \(\/nonexistent\/editor-xyz was not found\); set \$VISUAL/,
    );
  });

  it("Ctrl+G asks for the input with its pastes expanded; the answer replaces it, cursor at the end", () => {
    const asked = feed(newModel(), ...typeText("fix it"), key("g", { ctrl: true }));
    expect(asked.cmds).toContainEqual({ type: "edit-input", text: "fix it" });
    expect(asked.model.input.text).toBe("fix it");
    const { model } = feed(asked.model, { type: "input-edited", text: "fix it\nand test it" });
    expect(model.input).toEqual({ text: "fix it\nand test it", cursor: 18 });
  });
});
