// A shell command as words, for the plain cases only: the read-only allowlist
// (tools/shell/safety.ts) and the permission rules (context/permission-rules.ts) read commands
// with it, on both threads.

/** Allowed outside quotes. Everything else (metacharacters, globs, `~`, `\`, non-ASCII) is refused. */
const PLAIN = /^[A-Za-z0-9_\-./,:=@%+^]$/;
/** Control characters (newline, CR, NUL, ESC, ...) are refused even inside quotes. */
const CONTROL = /[\x00-\x08\x0a-\x1f\x7f]/;

/**
 * Splits like the shell would for the plain cases, or returns null when the text uses
 * anything beyond words and quotes. Inside single quotes all is literal; inside double
 * quotes `$`, backticks and `\` would still expand, so they are refused there.
 */
export function splitWords(cmd: string): string[] | null {
  if (CONTROL.test(cmd)) return null;
  const words: string[] = [];
  let current = "";
  let inWord = false;
  let i = 0;
  while (i < cmd.length) {
    const c = cmd[i]!;
    if (c === " " || c === "\t") {
      if (inWord) words.push(current);
      current = "";
      inWord = false;
      i++;
    } else if (c === "'" || c === '"') {
      const end = cmd.indexOf(c, i + 1);
      if (end < 0) return null;
      const quoted = cmd.slice(i + 1, end);
      if (c === '"' && /[$`\\]/.test(quoted)) return null;
      current += quoted;
      inWord = true;
      i = end + 1;
    } else if (PLAIN.test(c)) {
      current += c;
      inWord = true;
      i++;
    } else {
      return null;
    }
  }
  if (inWord) words.push(current);
  return words;
}
