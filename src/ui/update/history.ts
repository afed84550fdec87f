// Input history that lasts: earlier launches' inputs (this folder's, loaded at boot) come before
// this launch's; Ctrl+R searches them incrementally, newest first.
import type { Model } from "../model.js";
import type { Cmd, Key } from "../msg.js";

/** Boot: the saved history goes before what was typed while it loaded. */
export function mergeHistory(model: Model, saved: readonly string[]): void {
  const typed = model.history;
  model.history = [...saved.filter((s) => s !== typed[0]), ...typed];
}

/** A sent line joins the history (an immediate repeat is not kept twice) and is saved. */
export function remember(model: Model, text: string, cmds: Cmd[]): void {
  if (model.history[model.history.length - 1] !== text) model.history.push(text);
  cmds.push({ type: "history-append", text });
}

/** The newest entry at or before `from` that contains `query` (case-insensitive). */
export function searchHistory(history: readonly string[], query: string, from: number): number | null {
  const q = query.toLowerCase();
  for (let i = Math.min(from, history.length - 1); i >= 0; i--) {
    if (history[i]!.toLowerCase().includes(q)) return i;
  }
  return null;
}

/** Ctrl+R when not searching: start, keeping what was typed as the draft. */
export function startSearch(model: Model): void {
  model.draft = model.input.text;
  model.input = { text: "", cursor: 0 };
  model.historySearch = { query: "", index: searchHistory(model.history, "", model.history.length - 1) };
}

function finish(model: Model, accept: boolean): void {
  const search = model.historySearch!;
  const text = accept && search.index !== null ? model.history[search.index]! : model.draft;
  model.input = { text, cursor: text.length };
  model.historySearch = null;
  model.historyPos = null;
}

/**
 * Keys while searching: letters narrow, Backspace widens, Ctrl+R goes to an older match, Enter
 * or Tab takes the match into the input, Esc / Ctrl+G / Ctrl+C go back to the draft. Any other
 * key takes the match and then acts as usual. Returns whether the key was used up.
 */
export function applySearchKey(model: Model, key: Key): boolean {
  const search = model.historySearch;
  if (!search) return false;
  if (key.ctrl) {
    if (key.name === "r") {
      const from = search.index === null ? model.history.length - 1 : search.index - 1;
      const older = searchHistory(model.history, search.query, from);
      if (older !== null) search.index = older;
      return true;
    }
    if (key.name === "g" || key.name === "c") {
      finish(model, false);
      return true;
    }
    finish(model, true);
    return false;
  }
  switch (key.name) {
    case "escape":
      finish(model, false);
      return true;
    case "enter":
    case "tab":
      finish(model, true);
      return true;
    case "backspace":
      search.query = [...search.query].slice(0, -1).join("");
      search.index = searchHistory(model.history, search.query, model.history.length - 1);
      return true;
    default:
      if (!key.meta && [...key.name].length === 1) {
        search.query += key.name;
        search.index = searchHistory(model.history, search.query, search.index ?? model.history.length - 1);
        return true;
      }
      finish(model, true);
      return false;
  }
}
