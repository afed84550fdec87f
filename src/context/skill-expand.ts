import type { Skill } from "./skill-parse.js";

// Pure: no I/O, so the TUI may import it (DESIGN §1: app uses only the pure parts of context).

export function usage(skill: Pick<Skill, "name" | "params">): string {
  return [`/${skill.name}`, ...skill.params.map((p) => `<${p}>`)].join(" ");
}

export type Expansion = { ok: true; prompt: string } | { ok: false; error: string };

/** Text typed after a skill that has no place in its template goes after the body. */
function appendArguments(body: string, args: string): string {
  return args.length > 0 ? `${body}\n\nARGUMENTS: ${args}` : body;
}

/**
 * The prompt a skill invocation becomes. agent0 format: the words of `argText` fill
 * `{param1}`, `{param2}`… in order, the last parameter taking the rest of the text.
 * SKILL.md: the text replaces `$ARGUMENTS`, or is appended when the body has none.
 */
export function expandSkill(skill: Skill, argText: string): Expansion {
  const args = argText.trim();
  if (skill.format === "command") return { ok: true, prompt: expandClaudeCommand(skill.template, args) };
  if (skill.format === "skill-md" || skill.params.length === 0) {
    if (skill.template.includes("$ARGUMENTS"))
      return { ok: true, prompt: skill.template.split("$ARGUMENTS").join(args) };
    return { ok: true, prompt: appendArguments(skill.template, args) };
  }
  const values: string[] = [];
  let rest = args;
  for (let i = 0; i < skill.params.length; i++) {
    const last = i === skill.params.length - 1;
    const m = last ? null : /^(\S+)\s*([\s\S]*)$/.exec(rest);
    const value = last ? rest : (m?.[1] ?? "");
    if (value.length === 0) {
      return { ok: false, error: `/${skill.name} needs <${skill.params[i]}>: usage ${usage(skill)}` };
    }
    values.push(value);
    rest = m?.[2] ?? "";
  }
  let prompt = skill.template;
  skill.params.forEach((param, i) => {
    prompt = prompt.split(`{${param}}`).join(values[i]!);
  });
  return { ok: true, prompt };
}

/** `/name rest of the line` -> {name, args}; anything else (including `/usr/bin/x`) -> null. */
export function parseSlash(input: string): { name: string; args: string } | null {
  const m = /^\/([A-Za-z0-9][\w.-]*)(?:\s+([\s\S]*))?$/.exec(input.trim());
  return m ? { name: m[1]!, args: (m[2] ?? "").trim() } : null;
}

/** Tab completion: the `/names` that start with the typed `/prefix`, sorted, without duplicates. */
export function completeSlash(prefix: string, names: readonly string[]): string[] {
  if (!/^\/[\w.-]*$/.test(prefix)) return [];
  const typed = prefix.slice(1);
  const matches = new Set(names.map((n) => n.replace(/^\//, "")).filter((n) => n.startsWith(typed)));
  return [...matches].sort().map((n) => `/${n}`);
}

/** A Claude Code command: `$ARGUMENTS` is the whole text, `$1`… its words (`$9` at most); without either, the text follows the body. */
export function expandClaudeCommand(template: string, args: string): string {
  const words = args.split(/\s+/).filter(Boolean);
  const hasPlaceholder = /\$ARGUMENTS|\$[1-9]/.test(template);
  if (!hasPlaceholder) return appendArguments(template, args);
  return template.replace(/\$ARGUMENTS|\$([1-9])/g, (_m, n: string | undefined) =>
    n === undefined ? args : (words[Number(n) - 1] ?? ""),
  );
}
