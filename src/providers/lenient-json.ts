// Lenient JSON for what small models write: code fences, prose around the object,
// trailing commas, single quotes, unquoted keys, Python literals, raw newlines in
// strings. No package in node_modules does this, so it is a small string-aware scanner.

export type LenientResult = { ok: true; value: unknown } | { ok: false; error: string };

/** A balanced {...} or [...] found in a text: [start, end) offsets. */
export interface Span {
  start: number;
  end: number;
}

const FENCE = /^\s*```[\w+-]*[ \t]*\n([\s\S]*?)\n?[ \t]*```\s*$/;

/** The inside of a text that is one fenced code block; other text is returned as is. */
export function stripCodeFences(text: string): string {
  const m = FENCE.exec(text);
  return m ? m[1]! : text;
}

/**
 * The end (exclusive) of the balanced value opening at `start` ('{' or '['), skipping
 * brackets inside "..." and '...' strings; undefined when it never closes.
 */
export function balancedEnd(text: string, start: number): number | undefined {
  const stack: string[] = [];
  let quote: string | undefined;
  for (let i = start; i < text.length; i++) {
    const ch = text[i]!;
    if (quote) {
      if (ch === "\\") i++;
      else if (ch === quote) quote = undefined;
      continue;
    }
    if (ch === '"' || (ch === "'" && !isWordChar(text[i - 1]))) quote = ch;
    else if (ch === "{" || ch === "[") stack.push(ch === "{" ? "}" : "]");
    else if (ch === "}" || ch === "]") {
      if (stack.pop() !== ch) return undefined;
      if (stack.length === 0) return i + 1;
    }
  }
  return undefined;
}

function isWordChar(ch: string | undefined): boolean {
  return ch !== undefined && /[A-Za-z0-9_]/.test(ch);
}

/** Parse one JSON value written loosely. The whole text must be the value (after fences). */
export function parseLenientJson(text: string): LenientResult {
  const body = stripCodeFences(text).trim();
  if (body === "") return { ok: false, error: "empty text" };
  try {
    return { ok: true, value: JSON.parse(body) };
  } catch {
    // fall through to the repair
  }
  const repaired = repair(body, false);
  try {
    return { ok: true, value: JSON.parse(repaired) };
  } catch (e) {
    return { ok: false, error: e instanceof Error ? e.message : String(e) };
  }
}

/** Python keyword arguments (`path="a.txt", limit=5`) as an object, for tool_code calls. */
export function parseKwargs(text: string): LenientResult {
  if (text.trim() === "") return { ok: true, value: {} };
  try {
    return { ok: true, value: JSON.parse(repair(`{${text}}`, true)) };
  } catch (e) {
    return { ok: false, error: e instanceof Error ? e.message : String(e) };
  }
}

/**
 * The first balanced {...} in the text that parses leniently, with its span.
 * Skips balanced candidates that do not parse (e.g. `{braces}` in prose).
 */
export function extractJsonObject(text: string): { value: Record<string, unknown>; span: Span } | undefined {
  const body = text;
  // A bound on the candidates keeps a long reply full of code braces linear enough.
  let tries = 0;
  for (let start = body.indexOf("{"); start !== -1 && tries++ < MAX_CANDIDATES; start = body.indexOf("{", start + 1)) {
    const end = balancedEnd(body, start);
    if (end === undefined) continue;
    const parsed = parseLenientJson(body.slice(start, end));
    if (parsed.ok && isRecord(parsed.value)) return { value: parsed.value, span: { start, end } };
  }
  return undefined;
}

const MAX_CANDIDATES = 64;

export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

const PY_LITERALS: Record<string, string> = { True: "true", False: "false", None: "null" };

/**
 * Rewrite loose JSON into strict JSON: quotes normalised to "...", raw control characters
 * in strings escaped, unquoted keys quoted (and `key=` when `kwargs`), Python literals
 * mapped, trailing commas and comments dropped.
 */
function repair(src: string, kwargs: boolean): string {
  let out = "";
  let i = 0;
  while (i < src.length) {
    const ch = src[i]!;
    if (ch === '"' || ch === "'") {
      const [str, next] = readString(src, i);
      out += str;
      i = next;
    } else if (ch === "/" && src[i + 1] === "/") {
      while (i < src.length && src[i] !== "\n") i++;
    } else if (ch === "/" && src[i + 1] === "*") {
      const close = src.indexOf("*/", i + 2);
      i = close === -1 ? src.length : close + 2;
    } else if (ch === ",") {
      let j = i + 1;
      while (j < src.length && /\s/.test(src[j]!)) j++;
      if (src[j] !== "}" && src[j] !== "]") out += ",";
      i++;
    } else if (/[A-Za-z_$]/.test(ch)) {
      let j = i;
      while (j < src.length && /[\w$]/.test(src[j]!)) j++;
      const word = src.slice(i, j);
      let k = j;
      while (k < src.length && /[ \t]/.test(src[k]!)) k++;
      if (src[k] === ":" || (kwargs && src[k] === "=" && src[k + 1] !== "=")) {
        out += `${JSON.stringify(word)}:`;
        i = k + 1;
      } else {
        out += PY_LITERALS[word] ?? word;
        i = j;
      }
    } else {
      out += ch;
      i++;
    }
  }
  return out;
}

/** Read a "..." or '...' string at `start`; returns it as a strict JSON string. */
function readString(src: string, start: number): [string, number] {
  const quote = src[start]!;
  let value = "";
  let i = start + 1;
  while (i < src.length && src[i] !== quote) {
    const ch = src[i]!;
    if (ch === "\\" && i + 1 < src.length) {
      const next = src[i + 1]!;
      // \' is not a JSON escape; every other escape is kept for JSON.parse to judge.
      value += next === "'" ? "'" : ch + next;
      i += 2;
      continue;
    }
    if (ch === '"') value += '\\"';
    else if (ch === "\n") value += "\\n";
    else if (ch === "\r") value += "\\r";
    else if (ch === "\t") value += "\\t";
    else value += ch;
    i++;
  }
  return [`"${value}"`, i + 1];
}
