// The completion menu under the input: slash commands (typed `/` at the start) and @ mentions
// (layout/mentions.ts). Which menu shows, and its rows, follow from the input (layout/menu.ts); the
// model keeps only the selection and whether Esc closed it.
import { slashCommands } from "../slash-commands.js";
import type { Model, SkillRef } from "../model.js";
import type { Cmd, Key } from "../msg.js";
import type { CommandItem } from "../steer-types.js";
import { menuContext, menuRows, type MenuRow } from "../layout/menu.js";

/** Sources this module fills from the skills; other sources (MCP prompts) arrive by Msg and are kept. */
const OWN_SOURCES: ReadonlySet<string> = new Set([
  "built-in",
  "skill",
  "built-in skill",
  "user skill",
  "project skill",
  "user command",
  "project command",
]);

export function commandItems(skills: readonly SkillRef[]): CommandItem[] {
  const builtins = slashCommands.map((c) => ({
    name: c.name,
    description: c.help,
    source: "built-in",
    ...(c.args ? { args: c.args } : {}),
  }));
  const fromSkills = skills.map((s) => {
    const args = s.argumentHint ?? s.params.map((p) => `<${p}>`).join(" ");
    const kind = s.format === "command" ? "command" : "skill";
    return {
      name: s.name,
      description: s.description,
      source: s.plugin ? `plugin ${s.plugin}` : s.scope ? `${s.scope} ${kind}` : kind,
      ...(args ? { args } : {}),
    };
  });
  return [...builtins, ...fromSkills];
}

/** Replaces the skills' items (at boot), keeping those of other sources. */
export function setSkillCommands(model: Model, skills: readonly SkillRef[]): void {
  model.commands = [
    ...commandItems(skills),
    ...model.commands.filter((c) => !OWN_SOURCES.has(c.source) && !c.source.startsWith("plugin ")),
  ];
}

/** Replaces one source's items (e.g. "mcp:db" prompts). */
export function setSourceCommands(model: Model, source: string, items: CommandItem[]): void {
  model.commands = [...model.commands.filter((c) => c.source !== source), ...items.map((i) => ({ ...i, source }))];
}

/** After every key or paste: open, re-filter or close the menu to match the input. */
export function syncMenu(model: Model, cmds: Cmd[]): void {
  const ctx = menuContext(model);
  if (model.menuClosedFor !== null && model.menuClosedFor !== model.input.text) model.menuClosedFor = null;
  if (!ctx || model.menuClosedFor !== null || model.dialog || model.historySearch) {
    model.menu = null;
    model.filesAsked = null;
    return;
  }
  if (ctx.kind === "mention" && model.filesAsked !== ctx.query) {
    // A menu that opens lists the project again (the index skips it when its listing is fresh).
    cmds.push({ type: "match-files", query: ctx.query, refresh: model.menu?.kind !== "mention" });
    model.filesAsked = ctx.query;
  }
  if (model.menu?.kind !== ctx.kind || model.menu.query !== ctx.query) {
    model.menu = { kind: ctx.kind, query: ctx.query, selected: 0 };
  }
}

/**
 * The file index answered: a Tab pressed before it did completes now, once the answer is the
 * whole one for the mention as typed (not the best so far of a listing or a ranking).
 */
export function completePendingTab(model: Model): void {
  const ctx = menuContext(model);
  const files = model.files;
  if (model.tabPending === null) return;
  if (model.tabPending !== model.input.text || ctx?.kind !== "mention" || !model.menu) {
    model.tabPending = null;
    return;
  }
  if (!files || files.query !== ctx.query || files.building || files.ranking) return;
  model.tabPending = null;
  const rows = menuRows(model);
  if (rows.length > 0) accept(model, rows[Math.min(model.menu.selected, rows.length - 1)]!);
}

function accept(model: Model, row: MenuRow): void {
  const ctx = menuContext(model);
  if (!ctx) return;
  const { text } = model.input;
  const after = text.slice(ctx.end);
  const insert = row.keepOpen || after.startsWith(" ") ? row.insert.trimEnd() : row.insert;
  model.input = { text: text.slice(0, ctx.start) + insert + after, cursor: ctx.start + insert.length };
}

/**
 * Keys of an open menu with rows: Up/Down choose, Tab completes, Enter runs (or completes a
 * file), Esc closes. "submit": the line is ready to send. false: the key is not the menu's.
 */
export function applyMenuKey(model: Model, key: Key): boolean | "submit" {
  const rows = menuRows(model);
  if (!model.menu || rows.length === 0 || key.ctrl || key.meta) return false;
  const menu = model.menu;
  const selected = rows[Math.min(menu.selected, rows.length - 1)]!;
  switch (key.name) {
    case "up":
      menu.selected = (menu.selected - 1 + rows.length) % rows.length;
      return true;
    case "down":
      menu.selected = (menu.selected + 1) % rows.length;
      return true;
    case "tab":
      if (key.shift) return false;
      accept(model, selected);
      return true;
    case "enter":
      if (menu.kind === "slash" && selected.runs) {
        accept(model, selected);
        model.input = { text: model.input.text.trimEnd(), cursor: model.input.text.trimEnd().length };
        model.menu = null;
        return "submit";
      }
      accept(model, selected);
      return true;
    case "escape":
      model.menu = null;
      model.menuClosedFor = model.input.text;
      return true;
    default:
      return false;
  }
}
