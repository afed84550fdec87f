// Tool-call markup that chat templates use and that leaks into a reply's text when
// Ollama's template parser misses it. Each scanner returns the spans it recognised and
// the calls written in them (names not yet checked against the tool list).

import { balancedEnd, isRecord, parseKwargs, parseLenientJson } from "../../providers/lenient-json.js";
import { callsOf, readValues } from "./json-values.js";
import { readArgs, type WrittenCall } from "./tool-call-shape.js";

export interface MarkupMatch {
  start: number;
  end: number;
  calls: WrittenCall[];
  /** Fenced forms (```tool_code) are found inside code; the others are not. */
  fenced?: boolean;
  /** Tokens around calls that hold none themselves (DeepSeek's outer begin/end). */
  wrapper?: boolean;
}

type Scanner = (text: string) => MarkupMatch[];

/**
 * `<tool_call>…</tool_call>` (Qwen, Hermes, GLM), `<toolcall>` (Nemotron), `<seed:tool_call>`
 * (Seed-OSS) and kin; their closing tag may be missing. `<tools>`, `<tool>` and `<JSON>` are
 * words prose uses too: they count only when closed.
 */
const taggedCalls: Scanner = (text) =>
  [
    ...text.matchAll(/<(tool_call|tool_calls|function_call|toolcall|seed:tool_call)>([\s\S]*?)(?:<\/\1>|$)/g),
    ...text.matchAll(/<(tools|tool|JSON)>([\s\S]*?)<\/\1>/g),
  ].map((m) => ({
    start: m.index,
    end: m.index + m[0].length,
    calls: callsInBody(m[2]!),
  }));

/** `<function=name>…</function>`: qwen3-coder's `<parameter=k>v</parameter>` or a JSON object. */
const functionTags: Scanner = (text) =>
  [...text.matchAll(/<function=([\w.-]+)>([\s\S]*?)(?:<\/function>|$)/g)].map((m) => {
    const args = functionTagArgs(m[2]!);
    return { start: m.index, end: m.index + m[0].length, calls: args ? [{ name: m[1]!, args }] : [] };
  });

/** Llama 3.1: `<|python_tag|>{"name": …, "parameters": …}`, or a built-in tool's `name.call(k=v)`. */
const pythonTag: Scanner = (text) => {
  const json = afterMarker(text, /<\|python_tag\|>/g, /^\s*<\|(?:eom_id|eot_id)\|>/);
  const dotted = [...text.matchAll(/<\|python_tag\|>\s*([A-Za-z_]\w*)\.call\(([^\n]*)\)/g)].map((m) => {
    const call = pythonCall(`${m[1]}(${m[2]})`);
    return { start: m.index, end: m.index + m[0].length, calls: call ? [call] : [] };
  });
  return [...json, ...dotted];
};

/** Granite and Phi: `<|tool_call|>[…]<|/tool_call|>`. */
const pipeToolCall: Scanner = (text) => afterMarker(text, /<\|tool_calls?\|>/g, /^\s*<\|\/tool_calls?\|>/);

/** Firefunction: `functools[…]`. */
const functools: Scanner = (text) => afterMarker(text, /functools(?=\s*\[)/g);

/** Mistral: `[TOOL_CALLS] [{…}]`, or the newer `[TOOL_CALLS]name[ARGS]{…}`. */
const mistral: Scanner = (text) => {
  const out: MarkupMatch[] = [];
  for (const m of text.matchAll(/\[TOOL_CALLS\]\s*(?:([\w.-]+)(?:\[CALL_ID\]\w*)?\[ARGS\])?/g)) {
    const run = readValues(text, m.index + m[0].length);
    if (!run) continue;
    const calls = m[1] ? argsCall(m[1], run.values[0]) : callsOf(run.values);
    out.push({ start: m.index, end: run.end, calls: calls ?? [] });
  }
  return out;
};

/** DeepSeek: `<｜tool▁call▁begin｜>[function<｜tool▁sep｜>]name[<｜tool▁sep｜>]{…}<｜tool▁call▁end｜>`. */
const deepseek: Scanner = (text) => {
  const out: MarkupMatch[] = [];
  const re = /<[｜|]tool▁call▁begin[｜|]>([\s\S]*?)<[｜|]tool▁call▁end[｜|]>/g;
  for (const m of text.matchAll(re)) {
    let parts = m[1]!.split(/<[｜|]tool▁sep[｜|]>/);
    if (parts[0]!.trim() === "function") parts = parts.slice(1);
    const head = (parts[0] ?? "").trim();
    const name = head.split(/\s/)[0] ?? "";
    const body = parts.length > 1 ? parts.slice(1).join("") : head.slice(name.length);
    const parsed = parseLenientJson(body.trim());
    const calls = parsed.ok ? argsCall(name, parsed.value) : undefined;
    out.push({ start: m.index, end: m.index + m[0].length, calls: calls ?? [] });
  }
  for (const m of text.matchAll(/<[｜|]tool▁calls▁(?:begin|end)[｜|]>/g)) {
    out.push({ start: m.index, end: m.index + m[0].length, calls: [], wrapper: true });
  }
  return out;
};

/** gpt-oss (harmony): `<|channel|>commentary to=functions.name <|constrain|>json<|message|>{…}<|call|>`. */
const harmony: Scanner = (text) => {
  const out: MarkupMatch[] = [];
  const re =
    /(?:<\|start\|>assistant\s*)?(?:<\|channel\|>\w+\s*)?to=functions\.([\w.-]+)(?:\s*<\|channel\|>\w+)?[^<{\n]*(?:<\|constrain\|>\s*\w+\s*)?<\|message\|>/g;
  for (const m of text.matchAll(re)) {
    const open = m.index + m[0].length;
    const end = text[open] === "{" ? balancedEnd(text, open) : undefined;
    if (end === undefined) continue;
    const parsed = parseLenientJson(text.slice(open, end));
    const close = /^\s*<\|call\|>/.exec(text.slice(end));
    const calls = parsed.ok ? argsCall(m[1]!, parsed.value) : undefined;
    out.push({ start: m.index, end: end + (close ? close[0].length : 0), calls: calls ?? [] });
  }
  return out;
};

/** Gemma and others: a ```tool_code fence holding `name(k="v")` or `print(default_api.name(…))`. */
const toolCodeFence: Scanner = (text) =>
  [...text.matchAll(/```tool_code[ \t]*\n([\s\S]*?)\n?```/g)].map((m) => {
    const call = pythonCall(m[1]!.trim());
    return { start: m.index, end: m.index + m[0].length, calls: call ? [call] : [], fenced: true };
  });

/** LFM2: `<|tool_call_start|>[name(k=v), …]<|tool_call_end|>`. */
const lfm: Scanner = (text) =>
  [...text.matchAll(/<\|tool_call_start\|>([\s\S]*?)(?:<\|tool_call_end\|>|$)/g)].map((m) => ({
    start: m.index,
    end: m.index + m[0].length,
    calls: callsInBody(m[1]!),
  }));

/**
 * `<function_calls>`: Claude-style `<invoke name="x"><parameter name="p">v</parameter></invoke>`
 * (DeepSeek V3.2 writes it) or Olmo's `name(k=v)` lines.
 */
const functionCalls: Scanner = (text) =>
  [...text.matchAll(/<function_calls>([\s\S]*?)(?:<\/function_calls>|$)/g)].map((m) => {
    const body = m[1]!;
    const invokes = [...body.matchAll(/<invoke name="([\w.-]+)">([\s\S]*?)(?:<\/invoke>|$)/g)];
    const calls =
      invokes.length > 0 ? invokes.map((i) => ({ name: i[1]!, args: xmlParams(i[2]!) })) : callsInBody(body);
    return { start: m.index, end: m.index + m[0].length, calls };
  });

/** Command-A `<|START_ACTION|>[…]<|END_ACTION|>`; InternLM `<|action_start|><|plugin|>{…}<|action_end|>`. */
const actions: Scanner = (text) => [
  ...afterMarker(text, /<\|START_ACTION\|>/g, /^\s*<\|END_ACTION\|>/),
  ...afterMarker(text, /<\|action_start\|>\s*<\|plugin\|>/g, /^\s*<\|action_end\|>/),
];

/** Functionary v3: `>>>name\n{…}` at the start of a line (`>>>all` is text for the user). */
const functionary: Scanner = (text) => {
  const out: MarkupMatch[] = [];
  for (const m of text.matchAll(/(?<=^|\n)>>>[ \t]*([A-Za-z_][\w.-]*)[ \t]*\n?/g)) {
    if (m[1] === "all") continue;
    const run = readValues(text, m.index + m[0].length);
    const calls = run ? argsCall(m[1]!, run.values[0]) : undefined;
    // ">>> x" followed by a value is also a Python prompt: only a readable call counts.
    if (run && calls) out.push({ start: m.index, end: run.end, calls });
  }
  return out;
};

/** Gemma: `<start_function_call>call:name{k:<escape>v<escape>}<end_function_call>`, `<|tool_call>call:name{…}`. */
const gemma: Scanner = (text) =>
  [
    ...text.matchAll(
      /(?:<start_function_call>|<\|tool_call>)\s*call:([\w.-]+)(\{[\s\S]*?\})\s*(?:<end_function_call>|<tool_call\|>|(?=<start_function_call>|<\|tool_call>)|$)/g,
    ),
  ].map((m) => {
    const quoted = m[2]!.replace(/<escape>([\s\S]*?)<escape>/g, (_, v: string) => JSON.stringify(v));
    const parsed = parseLenientJson(quoted);
    const calls = parsed.ok ? argsCall(m[1]!, parsed.value) : undefined;
    return { start: m.index, end: m.index + m[0].length, calls: calls ?? [] };
  });

export const SCANNERS: readonly Scanner[] = [
  lfm,
  functionCalls,
  actions,
  functionary,
  gemma,
  taggedCalls,
  functionTags,
  pythonTag,
  pipeToolCall,
  functools,
  mistral,
  deepseek,
  harmony,
  toolCodeFence,
];

/** `name(k=v, …)` with an optional `print(` and `default_api.` around it. */
export function pythonCall(src: string): WrittenCall | undefined {
  const unwrapped = /^print\(([\s\S]*)\)$/.exec(src)?.[1]?.trim() ?? src;
  const m = /^(?:default_api\.)?([A-Za-z_][\w]*)\(([\s\S]*)\)$/.exec(unwrapped);
  if (!m) return undefined;
  const parsed = parseKwargs(m[2]!);
  return parsed.ok && isRecord(parsed.value) ? { name: m[1]!, args: parsed.value } : undefined;
}

/** Values right after each marker; `closer` is an end token eaten with them. */
function afterMarker(text: string, marker: RegExp, closer?: RegExp): MarkupMatch[] {
  const out: MarkupMatch[] = [];
  for (const m of text.matchAll(marker)) {
    const run = readValues(text, m.index + m[0].length);
    if (!run) continue;
    const close = closer?.exec(text.slice(run.end));
    out.push({ start: m.index, end: run.end + (close ? close[0].length : 0), calls: callsOf(run.values) ?? [] });
  }
  return out;
}

/** The inside of a <tool_call> tag: JSON call(s), `<function=…>`, or `name\n{args}`. */
function callsInBody(body: string): WrittenCall[] {
  const inner = body
    .trim()
    .replace(/^```\w*\s*\n?|\n?```$/g, "")
    .trim();
  if (inner.includes("<function=")) return functionTags(inner).flatMap((m) => m.calls);
  const glm = /^([A-Za-z_][\w.-]*)\s*(<arg_key>[\s\S]*)$/.exec(inner);
  if (glm) {
    const pairs = [...glm[2]!.matchAll(/<arg_key>([\s\S]*?)<\/arg_key>\s*<arg_value>([\s\S]*?)(?:<\/arg_value>|$)/g)];
    return [{ name: glm[1]!, args: Object.fromEntries(pairs.map((p) => [p[1]!.trim(), parameterValue(p[2]!)])) }];
  }
  const run = readValues(inner, 0, true);
  if (run) return callsOf(run.values) ?? [];
  const named = /^([A-Za-z_][\w.-]*)\s*(?:\n|\s)\s*([\s\S]*)$/.exec(inner) ?? /^([A-Za-z_][\w.-]*)()$/.exec(inner);
  if (named) {
    const parsed = named[2]!.trim() === "" ? { ok: true as const, value: {} } : parseLenientJson(named[2]!);
    if (parsed.ok) return argsCall(named[1]!, parsed.value) ?? [];
  }
  return pythonCallList(/^\[[\s\S]*\]$/.test(inner) ? inner.slice(1, -1) : inner) ?? [];
}

/** `<parameter name="p">v</parameter>` children, values read as parameterValue does. */
function xmlParams(body: string): Record<string, unknown> {
  const params = [...body.matchAll(/<parameter name="([\w.-]+)"[^>]*>([\s\S]*?)<\/parameter>/g)];
  return Object.fromEntries(params.map((p) => [p[1]!, parameterValue(p[2]!)]));
}

/** Comma- or newline-separated `name(k=v)` calls at the top level. */
export function pythonCallList(src: string): WrittenCall[] | undefined {
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
    else if ((ch === "," || ch === "\n") && depth === 0) {
      parts.push(src.slice(from, i));
      from = i + 1;
    }
  }
  parts.push(src.slice(from));
  const calls = parts
    .map((p) => p.trim())
    .filter((p) => p !== "")
    .map(pythonCall);
  return calls.length > 0 && calls.every((c) => c !== undefined) ? (calls as WrittenCall[]) : undefined;
}

function functionTagArgs(body: string): Record<string, unknown> | undefined {
  const params = [...body.matchAll(/<parameter=([\w.-]+)>([\s\S]*?)(?:<\/parameter>|(?=<parameter=)|$)/g)];
  if (params.length > 0) {
    return Object.fromEntries(params.map((p) => [p[1]!, parameterValue(p[2]!)]));
  }
  return readArgs(body.trim());
}

/** A parameter's text; JSON objects, arrays, numbers and booleans are read as such. */
function parameterValue(raw: string): unknown {
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

function argsCall(name: string, rawArgs: unknown): WrittenCall[] | undefined {
  const args = readArgs(rawArgs);
  return args && name !== "" ? [{ name: name.replace(/^functions\./, ""), args }] : undefined;
}
