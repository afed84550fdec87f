// An ACP prompt's content blocks as agent0's user turn: the shapes Zed sends for an @-mention
// (resource_link with a file: URI), a selection or buffer (embedded text resource), a pasted image.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { promptTurn } from "../../src/cli/acp/prompt.js";

const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=";
let dir: string;
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

function project(files: Record<string, string>): string {
  dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "agent0-acp-prompt-")));
  for (const [rel, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, rel), text);
  return dir;
}

describe("ACP prompt content", () => {
  it("reads an @-mentioned file as @path is read, and keeps what the user typed", async () => {
    const cwd = project({ "notes.md": "the notes\n" });
    const turn = await promptTurn(
      [
        { type: "text", text: "summarize" },
        { type: "resource_link", uri: `file://${path.join(cwd, "notes.md")}`, name: "notes.md" },
      ],
      cwd,
    );
    expect(turn.typed).toBe("summarize");
    expect(turn.message.typed).toBe("summarize");
    expect(turn.message.content).toBe('summarize\n\n<attached file="notes.md">\nthe notes\n\n</attached>');
    expect(turn.problems).toEqual([]);
  });

  it("prefers the editor's buffer (an embedded resource) over the disk", async () => {
    const cwd = project({ "a.ts": "on disk\n" });
    const turn = await promptTurn(
      [
        { type: "text", text: "fix this" },
        { type: "resource", resource: { uri: `file://${path.join(cwd, "a.ts")}`, text: "unsaved buffer" } },
      ],
      cwd,
    );
    expect(turn.message.content).toBe('fix this\n\n<attached file="a.ts">\nunsaved buffer\n</attached>');
  });

  it("keeps images for the model and says what it could not attach", async () => {
    const cwd = project({});
    const turn = await promptTurn(
      [
        { type: "text", text: "what is this?" },
        { type: "image", mimeType: "image/png", data: PNG },
        { type: "image", mimeType: "image/tiff", data: "AAAA" },
        { type: "audio", mimeType: "audio/wav", data: "AAAA" },
        { type: "resource_link", uri: "file:///etc/passwd", name: "passwd" },
      ],
      cwd,
    );
    expect(turn.message.images).toEqual([{ mimeType: "image/png", data: PNG }]);
    expect(turn.message.content).toBe("what is this?");
    expect(turn.problems).toEqual([
      "an image: image/tiff images are not supported — not attached.",
      "audio is not supported — not attached.",
      "@/etc/passwd is outside the project folder — not attached.",
    ]);
  });
});
