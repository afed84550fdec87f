// `@path` in a message attaches that file (or a folder's listing) to what the model gets. Used
// by the TUI (through services) and by headless -p. Paths stay inside the project folder, as
// for the file tools; a mention that is no existing path (`@alice`) is left as text.
import fs from "node:fs/promises";
import path from "node:path";
import { mentionsIn } from "../context/mention-parse.js";
import { projectFileRules } from "./tool-use.js";
import { maskSecrets } from "../safety/secrets.js";
import { isSecretFileName, maskSecretFile, projectSecretValues } from "../safety/secret-files.js";
import { looksBinary } from "../context/binary.js";

export { ATTACH_MAX_CHARS } from "./attach-limits.js";
import { cutAttachment } from "./attach-limits.js";
export const LISTING_MAX = 200;

export interface Attached {
  content: string;
  attached: string[];
  problems: string[];
}

async function attachment(cwd: string, mention: string): Promise<{ block?: string; problem?: string }> {
  const { resolveInside, realpathLoose, readRegularFile } = await projectFileRules();
  const resolved = resolveInside(cwd, mention);
  if (!resolved.ok) {
    const exists = await fs.stat(path.resolve(cwd, mention)).then(
      () => true,
      () => false,
    );
    return exists ? { problem: `@${mention} is outside the project folder — not attached.` } : {};
  }
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
  for (const mention of new Set(mentions)) {
    try {
      const r = await attachment(cwd, mention);
      if (r.problem) problems.push(r.problem);
      if (r.block) {
        blocks.push(r.block);
        attached.push(mention);
      }
    } catch (err) {
      problems.push(`@${mention}: ${(err as Error).message} — not attached.`);
    }
  }
  const content = blocks.length ? `${text}\n\n${blocks.join("\n\n")}` : text;
  return { content, attached, problems };
}
