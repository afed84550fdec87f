// How much of one attachment (an `@file`, piped stdin) goes to the model: the rest is cut with a
// note. Kept apart from attach.ts so a one-shot loads the number without the file walker.

/** Characters of one file (or of piped stdin) attached at most. */
export const ATTACH_MAX_CHARS = 50_000;

/** The text cut to ATTACH_MAX_CHARS, ending with a note that says how long it was and what `rest` does. */
export function cutAttachment(text: string, what: string, rest: string): { text: string; cut: boolean } {
  if (text.length <= ATTACH_MAX_CHARS) return { text, cut: false };
  return {
    text: `${text.slice(0, ATTACH_MAX_CHARS)}\n[... cut: ${what} has ${text.length} characters; ${rest}]`,
    cut: true,
  };
}
