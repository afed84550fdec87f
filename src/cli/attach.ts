// `@path` in a message attaches that file (or a folder's listing) to what the model gets. Used
// by the TUI (through services) and by headless -p. Paths stay inside the project folder, as
// for the file tools, but for an image: a screenshot dragged into the terminal is pasted as its
// path, from anywhere, and only its pixels go. A mention that is no existing path (`@alice`) is
// left as text.
import type { ImageAttachment } from "../protocol/conversation.js";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { mentionsIn } from "../context/mention-parse.js";
import { projectFileRules } from "./tool-use.js";
import { maskSecrets } from "../safety/secrets.js";
import { isSecretFileName, maskSecretFile, projectSecretValues } from "../safety/secret-files.js";
import { looksBinary } from "../context/binary.js";
import { fitImage } from "./image-fit.js";

export { ATTACH_MAX_CHARS } from "./attach-limits.js";
import { cutAttachment } from "./attach-limits.js";
export const LISTING_MAX = 200;
/** An image file outside the project read at most: past this it is no screenshot or photo. */
const MAX_IMAGE_INPUT_BYTES = 64 * 1024 * 1024;

export interface Attached {
  content: string;
  attached: string[];
  problems: string[];
  /** What the user is told that is no problem: an image scaled down to fit. */
  notes?: string[];
  /** `@picture.png`: the images, for a model that sees (the UI tells the user when it does not). */
  images?: ImageAttachment[];
}

/** An image's type from its first bytes (PNG, JPEG, GIF, WebP: what every provider takes). */
function imageType(buf: Buffer): string | undefined {
  if (buf.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return "image/png";
  if (buf[0] === 0xff && buf[1] === 0xd8 && buf[2] === 0xff) return "image/jpeg";
  if (buf.subarray(0, 4).toString("latin1") === "GIF8") return "image/gif";
  if (buf.subarray(0, 4).toString("latin1") === "RIFF" && buf.subarray(8, 12).toString("latin1") === "WEBP")
    return "image/webp";
  return undefined;
}

interface Attachment {
  block?: string;
  problem?: string;
  note?: string;
  image?: ImageAttachment;
}

/** An image file, scaled to fit, as its block and attachment; `shown` names it in both. */
async function imageAttachment(buf: Buffer, mimeType: string, mention: string, shown: string): Promise<Attachment> {
  const fitted = await fitImage(buf, mimeType, `@${mention}`);
  if (!fitted.ok) return { problem: fitted.problem };
  const size = fitted.width ? ` width="${fitted.width}" height="${fitted.height}"` : "";
  return {
    block: `<attached image="${shown}" type="${fitted.image.mimeType}" bytes="${fitted.bytes}"${size}/>`,
    image: fitted.image,
    ...(fitted.note ? { note: fitted.note } : {}),
  };
}

/** A mention outside the project: an image is attached (its pixels only); anything else is refused. */
async function outsideAttachment(cwd: string, mention: string, abs = path.resolve(cwd, mention)): Promise<Attachment> {
  const stat = await fs.stat(abs).catch(() => undefined);
  if (!stat) return {};
  const refused = { problem: `@${mention} is outside the project folder — not attached.` };
  if (!stat.isFile() || stat.size > MAX_IMAGE_INPUT_BYTES) return refused;
  const buf = await fs.readFile(abs);
  const mimeType = imageType(buf);
  return mimeType ? imageAttachment(buf, mimeType, mention, abs) : refused;
}

async function attachment(cwd: string, mention: string): Promise<Attachment> {
  // `~/Desktop/shot.png`, as a shell would read it.
  if (mention.startsWith("~/")) return outsideAttachment(cwd, mention, path.join(os.homedir(), mention.slice(2)));
  const { resolveInside, realpathLoose, readRegularFile } = await projectFileRules();
  const resolved = resolveInside(cwd, mention);
  if (!resolved.ok) return outsideAttachment(cwd, mention);
  const stat = await fs.stat(resolved.abs).catch(() => undefined);
  if (!stat) return {};
  if (stat.isDirectory()) {
    const entries = (await fs.readdir(resolved.abs, { withFileTypes: true }))
      .map((e) => (e.isDirectory() ? `${e.name}/` : e.name))
      .sort();
    const shown = entries.slice(0, LISTING_MAX);
    if (entries.length > shown.length) shown.push(`[... ${entries.length - shown.length} more entries]`);
    return { block: `<attached folder="${resolved.rel}">\n${shown.join("\n")}\n</attached>` };
  }
  const opened = await readRegularFile(resolved.abs, mention, realpathLoose(cwd));
  if (!opened.ok) return { problem: `@${mention}: ${opened.error.replace(/^Error: /, "")} — not attached.` };
  const buf = opened.buf;
  const mimeType = imageType(buf);
  if (mimeType) return imageAttachment(buf, mimeType, mention, resolved.rel);
  if (looksBinary(buf)) return { problem: `@${mention} is a binary file — not attached.` };
  const raw = buf.toString("utf8");
  const secret = opened.unsure || isSecretFileName(resolved.rel);
  const { text } = cutAttachment(
    maskSecrets(secret ? maskSecretFile(raw) : raw, process.env, projectSecretValues(cwd)),
    "the file",
    "read_file with an offset reads the rest",
  );
  return { block: `<attached file="${resolved.rel}">\n${text}\n</attached>` };
}

/** The message with each mentioned file's content (a folder's listing) after it. */
export async function readMentions(text: string, cwd: string, mentions = mentionsIn(text)): Promise<Attached> {
  const attached: string[] = [];
  const problems: string[] = [];
  const blocks: string[] = [];
  const images: ImageAttachment[] = [];
  const notes: string[] = [];
  for (const mention of new Set(mentions)) {
    try {
      const r = await attachment(cwd, mention);
      if (r.problem) problems.push(r.problem);
      if (r.note) notes.push(r.note);
      if (r.image) images.push(r.image);
      if (r.block) {
        blocks.push(r.block);
        attached.push(mention);
      }
    } catch (err) {
      problems.push(`@${mention}: ${(err as Error).message} — not attached.`);
    }
  }
  const content = blocks.length ? `${text}\n\n${blocks.join("\n\n")}` : text;
  return { content, attached, problems, ...(notes.length ? { notes } : {}), ...(images.length ? { images } : {}) };
}
