// Markdown files with a YAML frontmatter block (skills, memories, sub-agent types): the `---`
// block is split off with a regex, parsed with `yaml` (loaded then) and checked with the caller's zod schema.
import { lazyYaml } from "./lazy-yaml.js";
import type { z } from "zod";

const FRONTMATTER = /^---[ \t]*\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/;

export type ParsedFrontmatter<T> =
  /** `meta` is undefined when the file has no frontmatter block at all. */
  { ok: true; meta: T | undefined; body: string } | { ok: false; error: string };

/** Errors name the file and the field: "<source>: malformed frontmatter: name: expected string…". */
export function parseFrontmatter<S extends z.ZodType>(
  text: string,
  source: string,
  schema: S,
): ParsedFrontmatter<z.infer<S>> {
  const match = FRONTMATTER.exec(text);
  if (!match) {
    if (text.startsWith("---")) return { ok: false, error: `${source}: malformed frontmatter: no closing "---" line` };
    return { ok: true, meta: undefined, body: text.trim() };
  }
  let raw: unknown;
  try {
    raw = lazyYaml().parse(match[1]!);
  } catch (err) {
    // Claude Code reads what strict YAML refuses: the `/agents` generator writes one-line
    // descriptions holding "Context: …" and "user: …". Such values are read again as plain text.
    try {
      raw = lazyYaml().parse(quotePlainValues(match[1]!));
    } catch {
      const why = err instanceof Error ? err.message.split("\n")[0] : String(err);
      return { ok: false, error: `${source}: malformed frontmatter: ${why}` };
    }
  }
  const parsed = schema.safeParse(raw ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const where = issue.path.length > 0 ? `${issue.path.map(String).join(".")}: ` : "";
    return { ok: false, error: `${source}: malformed frontmatter: ${where}${issue.message}` };
  }
  return { ok: true, meta: parsed.data as z.infer<S>, body: text.slice(match[0].length).trim() };
}

/**
 * A top-level `key: value` whose plain value (not quoted, a list, a map or a block) holds ": ",
 * which strict YAML reads as a nested map: quoted whole. Other lines keep their YAML meaning.
 */
const PLAIN_LINE = /^([A-Za-z_][\w-]*):[ \t]+(?![\s"'[{|>&*!])(.+)$/;

function quotePlainValues(block: string): string {
  return block
    .split(/\r?\n/)
    .map((line) => {
      const m = PLAIN_LINE.exec(line);
      return m && /:\s/.test(m[2]!) ? `${m[1]}: ${JSON.stringify(m[2]!.trimEnd())}` : line;
    })
    .join("\n");
}
