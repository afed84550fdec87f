import { basename, dirname } from "node:path";
import { parseFrontmatter } from "./frontmatter.js";
import * as z from "zod";
import { lazily } from "./lazily.js";

/** "command": a Claude Code custom command (`.claude/commands/*.md`, see claude-commands.ts). */
export type SkillFormat = "agent0" | "skill-md" | "command";

export interface Skill {
  name: string;
  description: string;
  /** agent0 format: the `<param>` names in order. SKILL.md: always empty. */
  params: string[];
  template: string;
  /** The file it came from. */
  source: string;
  format: SkillFormat;
  /** SKILL.md `allowed-tools`: the only tools the model may use while the skill runs. */
  allowedTools?: string[];
  /** Where it was found: shown in the slash menu. */
  scope?: "built-in" | "user" | "project";
  /** The Agent Plugin it came with. */
  plugin?: string;
  /** A command's `argument-hint`, e.g. "[pr-number] [priority]". */
  argumentHint?: string;
}

export type SkillSummary = Pick<Skill, "name" | "description" | "params">;

const NAME = "[A-Za-z0-9][\\w.-]*";
/** `## /name <a> <b>` (any heading level) or the bare line `/name <a> <b>`. */
const SKILL_HEADING = new RegExp(`^(?:#{1,6}[ \\t]+)?\\/(${NAME})((?:[ \\t]+<[^<>\\s]+>)*)[ \\t]*$`);
const FENCE = /^\s*(```|~~~)/;
const DESCRIPTION_MAX = 100;

/** The first meaningful line of a body, without markdown decoration, as a one-line description. */
export function firstLineDescription(body: string): string {
  const line = body
    .split("\n")
    .map((l) => l.replace(/^[\s#>*\-+]+/, "").trim())
    .find((l) => l.length > 0 && !FENCE.test(l));
  if (!line) return "";
  return line.length > DESCRIPTION_MAX ? `${line.slice(0, DESCRIPTION_MAX - 1)}…` : line;
}

/**
 * agent0's format: each skill starts at a heading `## /name <p1> <p2>` (or a bare line
 * `/name <p1>`) and its template runs to the next skill heading. Text before the first
 * heading is the file's own preface and belongs to no skill. Headings inside code fences
 * are template text.
 */
export function parseAgent0Skills(text: string, source: string): Skill[] {
  const skills: Skill[] = [];
  let current: { name: string; params: string[]; body: string[] } | undefined;
  let inFence = false;
  const finish = () => {
    if (!current) return;
    const template = current.body.join("\n").trim();
    skills.push({
      name: current.name,
      description: firstLineDescription(template),
      params: current.params,
      template,
      source,
      format: "agent0",
    });
  };
  for (const line of text.split(/\r?\n/)) {
    if (FENCE.test(line)) inFence = !inFence;
    const heading = inFence ? null : SKILL_HEADING.exec(line);
    if (heading) {
      finish();
      const params = [...heading[2]!.matchAll(/<([^<>\s]+)>/g)].map((m) => m[1]!);
      current = { name: heading[1]!, params, body: [] };
    } else {
      current?.body.push(line);
    }
  }
  finish();
  return skills;
}

const skillFrontmatter = lazily(() => {
  const toolList = z
    .union([z.string(), z.array(z.string())])
    .transform((v) => (typeof v === "string" ? v.split(/[\s,]+/) : v).map((t) => t.trim()).filter(Boolean));
  return z.looseObject({
    name: z
      .string()
      .regex(new RegExp(`^${NAME}$`), "must be one word of letters, digits, '-', '_' or '.'")
      .optional(),
    description: z.string().optional(),
    "allowed-tools": toolList.optional(),
  });
});

export type ParsedSkillMd = { ok: true; skill: Skill } | { ok: false; error: string };

/**
 * The Agent Skills standard: `<dir>/SKILL.md` with YAML frontmatter (name, description,
 * allowed-tools). The name defaults to the folder's name, the description to the body's
 * first line.
 */
export function parseSkillMd(text: string, source: string): ParsedSkillMd {
  const parsed = parseFrontmatter(text, source, skillFrontmatter());
  if (!parsed.ok) return parsed;
  const body = parsed.body;
  const meta: z.infer<ReturnType<typeof skillFrontmatter>> = parsed.meta ?? {};
  const name = meta.name ?? basename(dirname(source));
  if (!new RegExp(`^${NAME}$`).test(name)) {
    return { ok: false, error: `${source}: no usable name: set "name:" in the frontmatter` };
  }
  const skill: Skill = {
    name,
    description: meta.description?.trim() || firstLineDescription(body),
    params: [],
    template: body,
    source,
    format: "skill-md",
  };
  if (meta["allowed-tools"]) skill.allowedTools = meta["allowed-tools"];
  return { ok: true, skill };
}
