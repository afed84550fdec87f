import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ATTACH_MAX_CHARS, readMentions } from "../../src/cli/attach.js";
import { tempProject } from "../tools/ctx.js";

const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));
function project(files: Record<string, string | Buffer>) {
  const p = tempProject(files);
  cleanups.push(p.cleanup);
  return p.dir;
}

describe("@ mentions attach files", () => {
  it("attaches a file's content and a folder's listing after the message", async () => {
    const dir = project({ "src/a.ts": "export const a = 1;\n", "src/b.ts": "b\n" });
    const r = await readMentions("explain @src/a.ts and @src, please.", dir);
    expect(r.attached).toEqual(["src/a.ts", "src"]);
    expect(r.problems).toEqual([]);
    expect(r.content.startsWith("explain @src/a.ts and @src, please.\n\n")).toBe(true);
    expect(r.content).toContain('<attached file="src/a.ts">\nexport const a = 1;\n\n</attached>');
    expect(r.content).toContain('<attached folder="src">\na.ts\nb.ts\n</attached>');
  });

  it("leaves a mention that is no path, and an e-mail address, as text", async () => {
    const dir = project({});
    const r = await readMentions("ask @alice, mail bob@example.com", dir);
    expect(r).toEqual({ content: "ask @alice, mail bob@example.com", attached: [], problems: [] });
  });

  it("refuses a binary file and cuts a big one with a note", async () => {
    const dir = project({
      "img.png": Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2]),
      "big.txt": "x".repeat(ATTACH_MAX_CHARS + 500),
    });
    const r = await readMentions("@img.png @big.txt", dir);
    expect(r.attached).toEqual(["big.txt"]);
    expect(r.problems).toEqual(["@img.png is a binary file — not attached."]);
    expect(r.content).toContain(`the file has ${ATTACH_MAX_CHARS + 500} characters`);
    expect(r.content.length).toBeLessThan(ATTACH_MAX_CHARS + 400);
  });

  it("does not read outside the project, also through a symlink (attack: a pasted @../ path)", async () => {
    const outside = fs.mkdtempSync(path.join(os.tmpdir(), "agent0-outside-"));
    cleanups.push(() => fs.rmSync(outside, { recursive: true, force: true }));
    fs.writeFileSync(path.join(outside, "secret.txt"), "CANARY-OUTSIDE-5150\n");
    const dir = project({});
    fs.symlinkSync(path.join(outside, "secret.txt"), path.join(dir, "link.txt"));
    const rel = path.relative(dir, path.join(outside, "secret.txt"));
    const r = await readMentions(`look at @${rel} and @link.txt`, dir);
    expect(r.content).not.toContain("CANARY-OUTSIDE-5150");
    expect(r.attached).toEqual([]);
    expect(r.problems).toHaveLength(2);
    expect(r.problems[0]).toContain("outside the project folder");
  });
});
