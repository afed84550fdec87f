// The second part of a call written as text: its arguments, in one of the few encodings chat
// templates use. Each reader starts at an offset and returns the arguments and where they end, or
// undefined when the text there is not that encoding:
// - a JSON object (or a JSON string holding one), leniently read;
// - pythonic keyword arguments `(k=v, …)`;
// - XML-like parameters: `<parameter name="p">v</parameter>`, `<parameter=p>v</parameter>`,
//   `<param name="p">`, any prefix (`steptml:`, `｜DSML｜`), `<arg_key>p</arg_key><arg_value>v</arg_value>`
//   (also prefixed: `longcat_arg_key`), or `<p>v</p>` for a property of the tool's schema.
import { balancedEnd, isRecord, parseKwargs, parseLenientJson } from "../../providers/lenient-json.js";
import { POSITION, readArgs, type WrittenCall } from "./tool-call-shape.js";

export interface ReadArgs {
  args: Record<string, unknown>;
  end: number;
}

/** A JSON object at `at` (a JSON string holding one counts too). */
export function jsonArgsAt(text: string, at: number): ReadArgs | undefined {
  if (text[at] === "{") {
    const end = balancedEnd(text, at);
    const args = end === undefined ? undefined : readArgs(text.slice(at, end));
    return args && end !== undefined ? { args, end } : undefined;
  }
  if (text[at] === '"') {
    const m = /^"(?:[^"\\]|\\.)*"/.exec(text.slice(at));
    const inner = m ? parseLenientJson(m[0]) : undefined;
    const args = inner?.ok && typeof inner.value === "string" ? readArgs(inner.value) : undefined;
    return args && m ? { args, end: at + m[0].length } : undefined;
  }
  return undefined;
}

/** `(k=v, …)` at `at`: Python keyword arguments with literal values. */
export function kwargsAt(text: string, at: number): ReadArgs | undefined {
  if (text[at] !== "(") return undefined;
  const end = groupEnd(text, at);
  if (end === undefined || text[end - 1] !== ")") return undefined;
  const inner = text.slice(at + 1, end - 1);
  // `read_file({"path": "a"})`: one JSON object as the only argument.
  const json = /^\s*\{[\s\S]*\}\s*$/.test(inner) ? readArgs(inner) : undefined;
  if (json) return { args: json, end };
  const parsed = parseKwargs(inner);
  if (parsed.ok && isRecord(parsed.value)) return { args: parsed.value, end };
  const positional = positionalArgs(inner) ?? colonArgs(inner);
  return positional ? { args: positional, end } : undefined;
}

/** Type names: `read_file(path: str)` is a signature, not a call. */
const TYPE_NAMES = /^(?:str|string|int|integer|float|number|bool|boolean|list|dict|object|any|array|none|null|void)$/i;

/**
 * `(city: Antwerp, days: 3)`: `name: value` pairs, as phi4-mini and smollm3 write them
 * (chimera-defi PARSER_GUIDE.md). An unquoted value is text, unless it names a type.
 */
function colonArgs(inner: string): Record<string, unknown> | undefined {
  const args: Record<string, unknown> = {};
  for (const part of splitTop(inner, ",").map((p) => p.trim())) {
    const m = /^([A-Za-z_]\w*)\s*:\s*([\s\S]+)$/.exec(part);
    if (!m) return undefined;
    const literal = parseKwargs(`v=${m[2]}`);
    if (literal.ok && isRecord(literal.value) && "v" in literal.value) args[m[1]!] = literal.value.v;
    else if (/^[^"'`()[\]{}]+$/.test(m[2]!) && !TYPE_NAMES.test(m[2]!.trim())) args[m[1]!] = m[2]!.trim();
    else return undefined;
  }
  return Object.keys(args).length > 0 ? args : undefined;
}

/** `("src/a.ts", 20)` or `("a", limit=5)`: literals by position, keyword arguments after them. */
function positionalArgs(inner: string): Record<string, unknown> | undefined {
  const args: Record<string, unknown> = {};
  let position = 0;
  for (const part of splitTop(inner, ",").map((p) => p.trim())) {
    if (part === "") continue;
    const kw = /^([A-Za-z_]\w*)\s*=(?!=)\s*([\s\S]+)$/.exec(part);
    const value = parseKwargs(`v=${kw ? kw[2] : part}`);
    if (!value.ok || !isRecord(value.value) || !("v" in value.value)) return undefined;
    if (kw) args[kw[1]!] = value.value.v;
    else if (Object.keys(args).some((k) => !k.startsWith(POSITION))) return undefined;
    else args[`${POSITION}${position++}`] = value.value.v;
  }
  return position > 0 ? args : undefined;
}

/**
 * Positional values named by the schema, only where that is not a guess: one value, for a tool
 * with one required parameter, a string (the rule LangChain's plain `Action Input` is read by).
 * Neither the order of `required` nor of `properties` is a signature: `edit_file("a.ts", "x",
 * "y")` could put the path into old_string, and a second value could be any optional parameter.
 */
export function placePositional(
  args: Record<string, unknown>,
  schema: Record<string, unknown> | undefined,
): Record<string, unknown> | undefined {
  const keys = Object.keys(args).filter((k) => k.startsWith(POSITION));
  if (keys.length === 0) return args;
  const key = soleStringParam(schema);
  if (keys.length > 1 || key === undefined || key in args) return undefined;
  const { [keys[0]!]: value, ...named } = args;
  return { [key]: value, ...named };
}

/** The tool's one required parameter when there is exactly one and it takes a string. */
export function soleStringParam(schema: Record<string, unknown> | undefined): string | undefined {
  if (!schema || !isRecord(schema.properties) || !Array.isArray(schema.required)) return undefined;
  const required = schema.required.filter((k): k is string => typeof k === "string");
  const prop = required.length === 1 ? schema.properties[required[0]!] : undefined;
  return isRecord(prop) && prop.type === "string" ? required[0] : undefined;
}

const PARAM_TAG = String.raw`(?:[|｜][A-Za-z]+[|｜]|[A-Za-z]+:)?(?:parameter|param|argument|arg)`;
/** `<parameter name="p" …>` or `<parameter=p>`; group 1 the tag, 2 or 3 the name. */
const NAMED_PARAM = new RegExp(
  String.raw`<(${PARAM_TAG})(?:\s+name\s*=\s*["']([^"']+)["'][^>]*|\s*=\s*["']?([^\s"'>]+)["']?)\s*>`,
  "y",
);
const KEY_VALUE =
  /<((?:[A-Za-z]+[_:])?)arg_key>([\s\S]*?)<\/\1arg_key>\s*<\1arg_value>([\s\S]*?)(?:<\/\1arg_value>|$)/y;
const OWN_TAG = /<([A-Za-z_][\w.-]*)>/y;

/**
 * XML-like parameters from `at` on, as many as follow one another. `props`: the tool's schema
 * properties; `<p>v</p>` counts only for one of them (any name when the schema is unknown).
 */
export function xmlArgsAt(text: string, at: number, props: readonly string[] | undefined): ReadArgs | undefined {
  const args: Record<string, unknown> = {};
  let i = at;
  let read = 0;
  for (;;) {
    const from = skipSpace(text, i);
    const one =
      namedParam(text, from) ??
      keyValue(text, from) ??
      ownTag(text, from, props) ??
      tokenPair(text, from, props) ??
      argBlock(text, from, props);
    if (!one) break;
    args[one.key] = parameterValue(one.value);
    i = one.end;
    read++;
  }
  return read > 0 ? { args, end: i } : undefined;
}

interface Param {
  key: string;
  value: string;
  end: number;
}

function namedParam(text: string, at: number): Param | undefined {
  NAMED_PARAM.lastIndex = at;
  const m = NAMED_PARAM.exec(text);
  if (!m) return undefined;
  const start = at + m[0].length;
  const close = new RegExp(String.raw`</${escape(m[1]!)}\s*>|(?=<${escape(m[1]!)}[\s=])`, "g");
  close.lastIndex = start;
  const c = close.exec(text);
  const valueEnd = c ? c.index : text.length;
  return { key: (m[2] ?? m[3])!, value: text.slice(start, valueEnd), end: c ? c.index + c[0].length : text.length };
}

function keyValue(text: string, at: number): Param | undefined {
  KEY_VALUE.lastIndex = at;
  const m = KEY_VALUE.exec(text);
  return m ? { key: m[2]!.trim(), value: unquote(m[3]!), end: at + m[0].length } : undefined;
}

/** HyperCLOVA X and Continue write a string value JSON-quoted (`"Seoul"`): the string inside. */
function unquote(raw: string): string {
  const t = raw.trim();
  if (!/^"[\s\S]*"$/.test(t)) return raw;
  try {
    const value: unknown = JSON.parse(t);
    return typeof value === "string" ? value : raw;
  } catch {
    return raw;
  }
}

function ownTag(text: string, at: number, props: readonly string[] | undefined): Param | undefined {
  OWN_TAG.lastIndex = at;
  const m = OWN_TAG.exec(text);
  if (!m || (props && !props.includes(m[1]!))) return undefined;
  const close = text.indexOf(`</${m[1]}>`, at + m[0].length);
  if (close < 0) return undefined;
  return { key: m[1]!, value: text.slice(at + m[0].length, close), end: close + m[1]!.length + 3 };
}

const TOKEN = String.raw`<[|｜][^<>|｜\n]{1,40}[|｜]>`;
const TOKEN_PAIR = new RegExp(String.raw`${TOKEN}\s*([A-Za-z_][\w-]*)\s*${TOKEN}([\s\S]*?)${TOKEN}`, "y");

/** Solar Open 2: `<|tool_arg:start|>key<|tool_arg:value|>value<|tool_arg:end|>`, special tokens around a key and its value. */
function tokenPair(text: string, at: number, props: readonly string[] | undefined): Param | undefined {
  TOKEN_PAIR.lastIndex = at;
  const m = TOKEN_PAIR.exec(text);
  if (!m || (props && !props.includes(m[1]!))) return undefined;
  return { key: m[1]!, value: m[2]!, end: at + m[0].length };
}

const ARG_BLOCK =
  /[ \t]*[A-Z][A-Z_]*(?:ARG|PARAM)[A-Z_]*[ \t]*:[ \t]*([A-Za-z_][\w-]*)[ \t]*\n([\s\S]*?)\n[ \t]*END_?(?:ARG|PARAM)[A-Z_]*[ \t]*(?=\n|$)/y;

/** Continue's system-message tools: `BEGIN_ARG: key`, the value on the lines below, `END_ARG`. */
function argBlock(text: string, at: number, props: readonly string[] | undefined): Param | undefined {
  ARG_BLOCK.lastIndex = at;
  const m = ARG_BLOCK.exec(text);
  if (!m || (props && !props.includes(m[1]!))) return undefined;
  return { key: m[1]!, value: unquote(m[2]!), end: at + m[0].length };
}

/** A parameter's text; JSON objects, arrays, numbers and booleans are read as such. */
export function parameterValue(raw: string): unknown {
  // An XML value may be a CDATA section (MiniCPM-4 writes multi-line text so): its text as written.
  const cdata = /^\s*<!\[CDATA\[([\s\S]*)\]\]>\s*$/.exec(raw);
  if (cdata) return cdata[1]!;
  const text = raw.replace(/^\n/, "").replace(/\n$/, "");
  const t = text.trim();
  if (/^(?:[{[]|-?\d+(?:\.\d+)?$|true$|false$|null$)/.test(t)) {
    try {
      const value: unknown = JSON.parse(t);
      // "007" or "1.50" are text that happens to look like a number: kept as written.
      return typeof value === "number" && String(value) !== t ? text : value;
    } catch {
      return text;
    }
  }
  return text;
}

/**
 * `name(k=v, …)` with an optional `default_api.` and Llama's `.call`. `print(` is unwrapped only
 * around Gemini's `default_api.` namespace, which no program uses: `print(read_file(…))` is code.
 */
export function pythonCall(src: string): WrittenCall | undefined {
  const unwrapped = /^print\(\s*(default_api\.[\s\S]*)\)$/.exec(src)?.[1]?.trim() ?? src;
  const m = /^([A-Za-z_][\w.]*?)(?:\.call)?(\([\s\S]*\))$/.exec(unwrapped);
  if (!m) return undefined;
  const args = kwargsAt(m[2]!, 0);
  return args && args.end === m[2]!.length ? { name: m[1]!, args: args.args } : undefined;
}

/** Comma- or newline-separated `name(k=v)` calls at the top level; undefined unless all are calls. */
export function pythonCallList(src: string): WrittenCall[] | undefined {
  const calls = splitTop(src, ",\n")
    .map((p) => p.trim())
    .filter((p) => p !== "")
    .map(pythonCall);
  return calls.length > 0 && calls.every((c) => c !== undefined) ? (calls as WrittenCall[]) : undefined;
}

/** `src` cut at the separators that stand outside brackets and strings. */
function splitTop(src: string, separators: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quote: string | undefined;
  let from = 0;
  for (let i = 0; i < src.length; i++) {
    const ch = src[i]!;
    if (quote) {
      if (ch === "\\") i++;
      else if (ch === quote) quote = undefined;
    } else if (ch === '"' || ch === "'") quote = ch;
    else if ("([{".includes(ch)) depth++;
    else if (")]}".includes(ch)) depth--;
    else if (separators.includes(ch) && depth === 0) {
      parts.push(src.slice(from, i));
      from = i + 1;
    }
  }
  parts.push(src.slice(from));
  return parts;
}

/** The end (exclusive) of the bracketed group (`(…)`, `[…]`, `{…}`) opening at `at`, strings skipped. */
export function groupEnd(text: string, at: number): number | undefined {
  let depth = 0;
  let quote: string | undefined;
  for (let i = at; i < text.length; i++) {
    const ch = text[i]!;
    if (quote) {
      if (ch === "\\") i++;
      else if (ch === quote) quote = undefined;
    } else if (ch === '"' || ch === "'") quote = ch;
    else if ("([{".includes(ch)) depth++;
    else if (")]}".includes(ch) && --depth === 0) return i + 1;
  }
  return undefined;
}

export function skipSpace(text: string, at: number): number {
  let i = at;
  while (i < text.length && /\s/.test(text[i]!)) i++;
  return i;
}

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
