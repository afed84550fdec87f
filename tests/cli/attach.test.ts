import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterEach, describe, expect, it } from "vitest";
import { ATTACH_MAX_CHARS, readMentions } from "../../src/cli/attach.js";
import { MAX_IMAGE_BYTES, MAX_IMAGE_SIDE } from "../../src/protocol/vision.js";
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

// Anthropic's vision guide: an image whose long edge is over 1568 px is scaled down anyway, and
// the API refuses one whose base64 is over 5 MB ("image exceeds 5 MB maximum",
// anthropics/claude-code#14887). Claude Code scales such an image down before sending it.
describe("@ images are scaled to fit", () => {
  const png = (width: number, height: number) =>
    sharp({ create: { width, height, channels: 3, background: { r: 200, g: 30, b: 30 } } })
      .png()
      .toBuffer();

  it("sends a small image as it is, with its size", async () => {
    const small = await png(40, 30);
    const dir = project({ "pic.png": small });
    const r = await readMentions("what is @pic.png", dir);
    expect(r.images).toEqual([{ mimeType: "image/png", data: small.toString("base64") }]);
    expect(r.content).toContain(
      `<attached image="pic.png" type="image/png" bytes="${small.length}" width="40" height="30"/>`,
    );
    expect(r.notes).toBeUndefined();
  });

  it("scales a large image down, keeping its aspect, and says so", async () => {
    const dir = project({ "big.png": await png(4000, 3000) });
    const r = await readMentions("what is @big.png", dir);
    expect(r.problems).toEqual([]);
    const meta = await sharp(Buffer.from(r.images![0]!.data, "base64")).metadata();
    expect([meta.width, meta.height]).toEqual([MAX_IMAGE_SIDE, 1176]);
    expect(r.notes![0]).toContain("@big.png was 4000×3000");
    expect(r.notes![0]).toContain(`sent as ${MAX_IMAGE_SIDE}×1176 PNG`);
    expect(r.notes![0]).toContain("1568 px on the longest side");
  });

  it("encodes an image too heavy at its own size as JPEG", async () => {
    // Noise does not compress: a 1200×1200 PNG of it is over the byte limit though its sides fit.
    const noise = Buffer.alloc(1200 * 1200 * 3);
    let x = 2463534242; // xorshift32: the same noise every run
    for (let i = 0; i < noise.length; i++) {
      x ^= x << 13;
      x ^= x >>> 17;
      x ^= x << 5;
      noise[i] = x & 0xff;
    }
    const heavy = await sharp(noise, { raw: { width: 1200, height: 1200, channels: 3 } })
      .png()
      .toBuffer();
    expect(heavy.length).toBeGreaterThan(MAX_IMAGE_BYTES);
    const dir = project({ "noise.png": heavy });
    const r = await readMentions("@noise.png", dir);
    expect(r.images![0]!.mimeType).toBe("image/jpeg");
    expect(Buffer.from(r.images![0]!.data, "base64").length).toBeLessThanOrEqual(MAX_IMAGE_BYTES);
    expect(r.content).toContain('type="image/jpeg"');
  });

  it("attaches an image outside the project (a dragged screenshot), but no other file there", async () => {
    const outside = fs.mkdtempSync(path.join(os.tmpdir(), "agent0-outside-"));
    cleanups.push(() => fs.rmSync(outside, { recursive: true, force: true }));
    fs.writeFileSync(path.join(outside, "shot.png"), await png(10, 10));
    fs.writeFileSync(path.join(outside, "notes.png"), "CANARY-NOT-AN-IMAGE\n");
    const dir = project({});
    const r = await readMentions(`@${outside}/shot.png and @${outside}/notes.png`, dir);
    expect(r.images).toHaveLength(1);
    expect(r.content).not.toContain("CANARY-NOT-AN-IMAGE");
    expect(r.problems).toEqual([`@${outside}/notes.png is outside the project folder — not attached.`]);
  });

  it("reads a quoted path with spaces, and ~/ from the home folder (what a dragged file pastes)", async () => {
    const home = fs.mkdtempSync(path.join(os.tmpdir(), "agent0-home-"));
    cleanups.push(() => fs.rmSync(home, { recursive: true, force: true }));
    fs.mkdirSync(path.join(home, "Desktop"));
    fs.writeFileSync(path.join(home, "Desktop", "my shot.png"), await png(12, 8));
    const dir = project({});
    const r = await readMentions(`what is @"${home}/Desktop/my shot.png"?`, dir);
    expect(r.images).toHaveLength(1);
    expect(r.content).toContain(`<attached image="${home}/Desktop/my shot.png" type="image/png"`);
    const saved = process.env.HOME;
    process.env.HOME = home;
    try {
      expect((await readMentions('@"~/Desktop/my shot.png"', dir)).images).toHaveLength(1);
    } finally {
      process.env.HOME = saved;
    }
  });
});
