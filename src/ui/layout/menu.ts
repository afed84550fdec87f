// The completion menu's rows: which menu the text at the cursor asks for (slash commands, @
// mentions) and what it lists. update/menu.ts moves the selection; view/menu.ts draws the rows.
import type { Model } from "../model.js";
import type { CommandItem, MenuRow } from "../steer-types.js";

export type { MenuRow };
import { mentionAt, mentionFooter, mentionRows, type MentionToken } from "./mentions.js";

type Context = { kind: "slash"; query: string; start: number; end: number } | ({ kind: "mention" } & MentionToken);

/** What the text at the cursor asks to complete, if anything. */
export function menuContext(model: Model): Context | null {
  const { text, cursor } = model.input;
  if (text.startsWith("/")) {
    const end = text.search(/\s/);
    const wordEnd = end === -1 ? text.length : end;
    if (cursor <= wordEnd) return { kind: "slash", query: text.slice(1, wordEnd), start: 0, end: wordEnd };
  }
  const mention = mentionAt(text, cursor);
  return mention ? { kind: "mention", ...mention } : null;
}

export function slashRows(commands: readonly CommandItem[], query: string): MenuRow[] {
  const q = query.toLowerCase();
  const starts = commands.filter((c) => c.name.toLowerCase().startsWith(q));
  const contains = q
    ? commands.filter((c) => !c.name.toLowerCase().startsWith(q) && c.name.toLowerCase().includes(q))
    : [];
  const seen = new Set<string>();
  return [...starts, ...contains]
    .filter((c) => !seen.has(c.name) && seen.add(c.name))
    .map((c) => ({
      label: `/${c.name}${c.args ? ` ${c.args}` : ""}`,
      detail: c.description,
      source: c.source === "built-in" ? "" : c.source,
      insert: `/${c.name} `,
      runs: !c.args?.startsWith("<"),
      keepOpen: false,
    }));
}

/** The rows of the open menu (empty when none is open). */
export function menuRows(model: Model): MenuRow[] {
  if (!model.menu) return [];
  const ctx = menuContext(model);
  if (!ctx) return [];
  return ctx.kind === "slash" ? slashRows(model.commands, ctx.query) : mentionRows(model, ctx.query);
}

/** Rows of the menu shown at most; the list scrolls to keep the selection in view. */
export const MENU_MAX_ROWS = 8;

/** The dim line under an @ menu (the index's progress, or the matches not shown). */
export function menuFooter(model: Model, rows: number): string | null {
  return model.menu?.kind === "mention" ? mentionFooter(model, rows) : null;
}

export function menuRowCount(model: Model): number {
  if (!model.menu) return 0;
  const rows = menuRows(model).length;
  return Math.min(MENU_MAX_ROWS, rows) + (menuFooter(model, rows) === null ? 0 : 1);
}
