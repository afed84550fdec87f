// `/permissions` (the mode, then every rule with where it came from; `remove <n>` takes one out)
// and `/hooks` (every hook with its event, matcher and file). Pure: a removal is a Cmd.
import { HOOK_EVENTS } from "../../protocol/hooks.js";
import type { PermissionRule } from "../../protocol/permission-rule.js";
import type { Model } from "../model.js";
import type { Cmd } from "../msg.js";
import { addEntry } from "./transcript.js";

/** Every rule that counts now: the files' and flags' (model.config), then the session's "always" answers. */
export function allRules(model: Model): PermissionRule[] {
  const session = model.config.allowedTools.map((rule) => ({ rule, kind: "allow" as const, source: "session" }));
  return [...(model.config.permissionRules ?? []), ...session];
}

export function formatRules(model: Model): string {
  const rules = allRules(model);
  if (rules.length === 0)
    return 'No permission rules. Add them under "permissions": {"allow": [...], "ask": [...], "deny": [...]} in your config.json or ~/.claude/settings.json, or the project\'s .agent0/settings.json or .claude/settings.json (e.g. "Bash(npm test:*)").';
  const lines = ["Permission rules (deny beats ask beats allow):"];
  rules.forEach((r, i) => lines.push(`  ${i + 1}. ${r.kind.padEnd(5)} ${r.rule}  — ${r.source}`));
  const pending = model.mcpProject.pending.filter((p) => p.kind === "settings").map((p) => p.file);
  const denied = model.mcpProject.denied.filter((p) => p.kind === "settings").map((p) => p.file);
  if (pending.length || denied.length)
    lines.push(`Not counted (project not trusted): the allow rules of ${[...pending, ...denied].join(", ")}.`);
  lines.push("/permissions remove <n> takes one out.");
  return lines.join("\n");
}

/** `/permissions remove <n>`: a session rule goes at once; a file's rule is taken out of its file. */
export function removeRule(model: Model, which: string | undefined, cmds: Cmd[]): void {
  const notice = (text: string, level: "info" | "warn" = "info") => addEntry(model, { kind: "notice", level, text });
  const rules = allRules(model);
  const n = Number(which);
  const rule = Number.isInteger(n) ? rules[n - 1] : undefined;
  if (!rule)
    return notice(
      `Usage: /permissions remove <n>, with n from 1 to ${rules.length} (/permissions lists them).`,
      "warn",
    );
  if (rule.source === "session") {
    model.config.allowedTools = model.config.allowedTools.filter((k) => k !== rule.rule);
    return notice(`Removed ${rule.rule} (allowed for this session): it asks again from the next run.`);
  }
  if (rule.source.startsWith("--"))
    return notice(`${rule.rule} comes from the ${rule.source} flag: start agent0 without it to drop it.`, "warn");
  cmds.push({ type: "remove-permission-rule", rule: rule.rule, file: rule.source });
}

export function formatHooks(model: Model): string {
  const hooks = model.config.hooks ?? {};
  const lines: string[] = [];
  for (const event of HOOK_EVENTS)
    for (const g of hooks[event] ?? [])
      for (const h of g.hooks)
        lines.push(
          `  ${event}${g.matcher ? ` [${g.matcher}]` : ""}: ${h.command}${h.timeout ? ` (${h.timeout} s)` : ""}  — ${g.source}`,
        );
  const waiting = [...model.mcpProject.pending, ...model.mcpProject.denied].filter((p) => p.kind === "settings");
  const out = lines.length
    ? [`Hooks (run in this order, each with its time-out, default 60 s):`, ...lines]
    : [
        "No hooks. Add them under \"hooks\" in your config.json or ~/.claude/settings.json, or the project's .agent0/settings.json or .claude/settings.json, in Claude Code's shape.",
      ];
  for (const w of waiting)
    out.push(`Not run (project not trusted): the hooks of ${w.file}. /mcp trust ${w.name} asks.`);
  return out.join("\n");
}
