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

/** `<tool_call>…</tool_call>` (Qwen, Hermes) and kin; the closing tag may be missing. */
const taggedCalls: Scanner = (text) =>
  [...text.matchAll(/<(tool_call|tool_calls|function_call|tools)>([\s\S]*?)(?:<\/\1>|$)/g)].map((m) => ({
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

/** Llama 3.1: `<|python_tag|>{"name": …, "parameters": …}` up to an end token. */
const pythonTag: Scanner = (text) => afterMarker(text, /<\|python_tag\|>/g, /^\s*<\|(?:eom_id|eot_id)\|>/);

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
    /(?:<\|start\|>assistant)?(?:<\|channel\|>\w+\s*)?to=functions\.([\w.-]+)[^<{\n]*(?:<\|constrain\|>\s*\w+\s*)?<\|message\|>/g;
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

export const SCANNERS: readonly Scanner[] = [
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
  const run = readValues(inner, 0, true);
  if (run) return callsOf(run.values) ?? [];
  const named = /^([A-Za-z_][\w.-]*)\s*(?:\n|\s)\s*([\s\S]*)$/.exec(inner) ?? /^([A-Za-z_][\w.-]*)()$/.exec(inner);
  if (named) {
    const parsed = named[2]!.trim() === "" ? { ok: true as const, value: {} } : parseLenientJson(named[2]!);
    if (parsed.ok) return argsCall(named[1]!, parsed.value) ?? [];
  }
  return pythonCall(inner) ? [pythonCall(inner)!] : [];
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
      return JSON.parse(t);
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
