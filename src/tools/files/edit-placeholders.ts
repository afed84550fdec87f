// Lines that stand for text the model left out: `...` elisions in old_string (read by the
// elided-middle strategy), and placeholders in new_string that would be written into the code in
// place of what they stand for (refused unless old_string or the file has the line).

/** `// ... existing code ...`, `# ... rest unchanged`, `<!-- ... -->`, `...`: text left out. */
export const ELISION = /^\s*(?:(?:\/\/|#|--|;|\/\*+|\*|<!--|%)\s*)?(?:\.\.\.|…)[^\n]*$/;
/** `// ... existing code ...`, `(rest of methods ...)`, `# rest unchanged`: text the model left out. */
const FRAMED = /^(?:\/\/+|#+|--|;+|\/\*+|\*|<!--|%|\{\/\*|\(|\[)\s*(.*?)\s*(?:\*\/\}?|-->|\)|\])?$/;
// Words of a comment that stands for code; alone, "existing" or "other" are ordinary comment words.
const LEFT_OUT =
  /\b(?:rest of|the rest\b|rest (?:is |are )?unchanged|existing (?:code|methods?|functions?|implementation|logic|content)\b|omitted|same as (?:before|above)|(?:code|everything|all|else) (?:(?:remains?|stays?|is|are) )?unchanged)/i;
const LEFT_OUT_AFTER_ELLIPSIS = /\b(?:other|more|existing|remaining|code|methods?|functions?|here|unchanged|same)\b/i;

/** A line that stands for code left out rather than being code. */
export function isPlaceholder(line: string): boolean {
  const t = line.trim();
  const framed = FRAMED.exec(t);
  const body = framed ? framed[1]! : t;
  const ellipsis = /\.\.\.|…/.test(body);
  const words = body.replace(/\.\.\.|…/g, " ").trim();
  if (!framed && !ellipsis) return false;
  if (words === "") return framed !== null && ellipsis;
  if (words.split(/\s+/).length > 10 || /[;{}=]/.test(words)) return false;
  return LEFT_OUT.test(words) || (ellipsis && LEFT_OUT_AFTER_ELLIPSIS.test(words));
}
