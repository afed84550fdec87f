// Text editing in the input box, as pure functions of { text, cursor }: cursor moves by
// character, word and line, and the deletions readline users expect (Ctrl+W, Alt+Backspace,
// Ctrl+U, Ctrl+K). The cursor is a UTF-16 index that never splits a surrogate pair.
import type { Key } from "../msg.js";

export interface InputState {
  text: string;
  cursor: number;
}

export type EditAction =
  | "left"
  | "right"
  | "word-left"
  | "word-right"
  | "line-start"
  | "line-end"
  | "delete-back"
  | "delete-forward"
  | "delete-word-back"
  | "delete-word-forward"
  | "delete-to-line-start"
  | "delete-to-line-end";

/**
 * The edit a key means, or undefined for keys that are not edits. Home/End edit only when
 * there is text: on an empty input they scroll the transcript (see input.ts).
 */
export function editActionFor(key: Key, state: InputState): EditAction | undefined {
  if (key.ctrl) {
    switch (key.name) {
      case "a":
        return "line-start";
      case "e":
        return "line-end";
      case "b":
        return "left";
      case "f":
        return "right";
      case "w":
        return "delete-word-back";
      case "u":
        return "delete-to-line-start";
      case "k":
        return "delete-to-line-end";
      case "left":
        return "word-left";
      case "right":
        return "word-right";
      default:
        return undefined;
    }
  }
  if (key.meta) {
    switch (key.name) {
      case "left":
      case "b":
        return "word-left";
      case "right":
      case "f":
        return "word-right";
      case "backspace":
        return "delete-word-back";
      case "d":
      case "delete":
        return "delete-word-forward";
      default:
        return undefined;
    }
  }
  switch (key.name) {
    case "left":
      return "left";
    case "right":
      return "right";
    case "backspace":
      return "delete-back";
    case "delete":
      return "delete-forward";
    case "home":
      return state.text ? "line-start" : undefined;
    case "end":
      return state.text ? "line-end" : undefined;
    default:
      return undefined;
  }
}

export function applyEdit(state: InputState, action: EditAction): InputState {
  const { text, cursor } = state;
  const to = (c: number): InputState => ({ text, cursor: c });
  const cut = (from: number, end: number): InputState => ({
    text: text.slice(0, from) + text.slice(end),
    cursor: from,
  });
  switch (action) {
    case "left":
      return to(cursor - charBefore(text, cursor));
    case "right":
      return to(cursor + charAfter(text, cursor));
    case "word-left":
      return to(wordStart(text, cursor));
    case "word-right":
      return to(wordEnd(text, cursor));
    case "line-start":
      return to(lineStart(text, cursor));
    case "line-end":
      return to(lineEnd(text, cursor));
    case "delete-back":
      return cut(cursor - charBefore(text, cursor), cursor);
    case "delete-forward":
      return cut(cursor, cursor + charAfter(text, cursor));
    case "delete-word-back":
      return cut(wordStart(text, cursor), cursor);
    case "delete-word-forward":
      return cut(cursor, wordEnd(text, cursor));
    case "delete-to-line-start": {
      // At a line's start, Ctrl+U joins it to the line above (as readline deletes the newline).
      const start = lineStart(text, cursor);
      return cut(start === cursor && cursor > 0 ? cursor - 1 : start, cursor);
    }
    case "delete-to-line-end": {
      const end = lineEnd(text, cursor);
      return cut(cursor, end === cursor && cursor < text.length ? cursor + 1 : end);
    }
  }
}

export function insertText(state: InputState, s: string): InputState {
  const { text, cursor } = state;
  return { text: text.slice(0, cursor) + s + text.slice(cursor), cursor: cursor + s.length };
}

export function lineStart(text: string, cursor: number): number {
  return text.lastIndexOf("\n", cursor - 1) + 1;
}

export function lineEnd(text: string, cursor: number): number {
  const i = text.indexOf("\n", cursor);
  return i === -1 ? text.length : i;
}

function charBefore(text: string, cursor: number): number {
  if (cursor <= 0) return 0;
  const code = text.charCodeAt(cursor - 1);
  return code >= 0xdc00 && code <= 0xdfff && cursor >= 2 ? 2 : 1;
}

function charAfter(text: string, cursor: number): number {
  if (cursor >= text.length) return 0;
  return text.codePointAt(cursor)! > 0xffff ? 2 : 1;
}

// A word is a run of letters, digits and underscores; everything else separates words (so
// Ctrl+W in "src/ui/model.ts" deletes "ts", then ".", as in shells and editors).
const WORD = /[\p{L}\p{N}_]/u;

function isWord(text: string, i: number): boolean {
  return WORD.test(text[i] ?? "");
}

/** Back over spaces, then over a word (or over a run of punctuation). */
function wordStart(text: string, cursor: number): number {
  let i = cursor;
  while (i > 0 && /\s/.test(text[i - 1]!)) i--;
  if (i > 0 && isWord(text, i - 1)) while (i > 0 && isWord(text, i - 1)) i--;
  else while (i > 0 && !isWord(text, i - 1) && !/\s/.test(text[i - 1]!)) i--;
  return i;
}

/** Forward over spaces, then over a word (or over a run of punctuation). */
function wordEnd(text: string, cursor: number): number {
  let i = cursor;
  while (i < text.length && /\s/.test(text[i]!)) i++;
  if (i < text.length && isWord(text, i)) while (i < text.length && isWord(text, i)) i++;
  else while (i < text.length && !isWord(text, i) && !/\s/.test(text[i]!)) i++;
  return i;
}
