// The file's own syntax, before and after a change (issue 37, part 2). A near-miss edit (any
// strategy but exact) that makes a file that parsed stop parsing is refused: the model's copy
// was off, and its guess is not written. An exact edit, write_file and apply_patch's exact hunks
// are written (a refactor in steps may pass through a broken state), and the result says the
// file no longer parses, with the line, so the next step can mend it. A file that did not parse
// before, or a language without a grammar, is judged by edit-verify.ts's checks alone.
import { checkWithLanguage } from "./syntax-checkers.js";
import { firstParseError, grammarOf, type ParseError } from "./syntax.js";

export type SyntaxVerdict = { ok: true; note: string } | { ok: false; error: string };

export interface Judging {
  /** A strategy other than exact placed the change: a new syntax error refuses it. */
  nearMiss: boolean;
  /** new_string was read without diff markers: only a judge that accepts the result lets it through. */
  mustJudge?: boolean;
}

const OK: SyntaxVerdict = { ok: true, note: "" };

/** The verdict on a change of `file` from `before` (undefined: a new file) to `after`. */
export async function judgeSyntax(
  file: string,
  before: string | undefined,
  after: string,
  how: Judging,
): Promise<SyntaxVerdict> {
  const grammar = grammarOf(file);
  if (!grammar) return how.mustJudge ? { ok: false, error: unjudged(file) } : OK;
  const judge = `tree-sitter (${grammar})`;
  const error = await firstParseError(after, grammar);
  if (error === undefined && how.mustJudge) return { ok: false, error: unjudged(file) };
  if (error) {
    const was = before === undefined ? null : await firstParseError(before, grammar);
    if (was !== null) return how.mustJudge ? { ok: false, error: broken(file, after, error, judge) } : OK;
    if (how.nearMiss) {
      // A grammar can lag its language: where the language's own checker accepts the text, it decides.
      const own = await checkWithLanguage(grammar, file, after);
      if (own?.error === null) return { ok: true, note: ` Syntax checked by ${own.checker}.` };
      return { ok: false, error: broken(file, after, error, judge) };
    }
    const where = before === undefined ? "does not parse" : "no longer parses";
    return { ok: true, note: `\nNote: ${file} ${where} (${judge}): line ${error.line}: ${shown(error)}. Fix it next.` };
  }
  if (!how.nearMiss) return OK;
  const checked = await checkWithLanguage(grammar, file, after);
  if (checked?.error) {
    const was = before === undefined ? undefined : await checkWithLanguage(grammar, file, before);
    if (how.mustJudge || was?.error === null)
      return { ok: false, error: broken(file, after, checked.error, checked.checker) };
  }
  return { ok: true, note: ` Syntax checked by ${judge}${checked ? ` and ${checked.checker}` : ""}.` };
}

const shown = (e: ParseError) => JSON.stringify(e.text.length > 120 ? `${e.text.slice(0, 117)}...` : e.text);

/** The refusal: the first error's line, shown with two lines either side as the file would read. */
function broken(file: string, after: string, e: ParseError, judge: string): string {
  const lines = after.split("\n");
  const from = Math.max(0, e.line - 3);
  const to = Math.min(lines.length, e.line + 2);
  const around = lines
    .slice(from, to)
    .map((l, k) => `${String(from + k + 1).padStart(6)}\t${l}`)
    .join("\n");
  return (
    `the edit was not applied: ${file} parses now, and with this change it would not (${judge}): ` +
    `line ${e.line}, ${shown(e)}, is an error. The file would read:\n${around}\n` +
    "old_string did not match exactly, so check both strings against the file (read it again) and retry."
  );
}

function unjudged(file: string): string {
  return (
    `new_string reads like a diff (every line starts with "+", "-" or a space) and ${file} has no syntax ` +
    "checker to prove the lines without those markers right. Write new_string as the new text itself, without markers."
  );
}
