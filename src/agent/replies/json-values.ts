// Reading a run of JSON values ({...} or [...]) one after another, as models write
// several calls: `{...}\n{...}`, `{...}; {...}`, `[{...}, {...}]`.

import { balancedEnd, isRecord, parseLenientJson } from "../../providers/lenient-json.js";
import { readArgs, readCallShape, type WrittenCall } from "./tool-call-shape.js";

export interface ValueRun {
  values: unknown[];
  /** Offset just after the last value read. */
  end: number;
}

/**
 * Values from `start` on, separated by whitespace, commas or semicolons. `whole`: every
 * character must belong to a value (else undefined); otherwise reading stops at the first
 * thing that is not a value.
 */
export function readValues(text: string, start = 0, whole = false): ValueRun | undefined {
  const values: unknown[] = [];
  let i = start;
  let end = start;
  for (;;) {
    while (i < text.length && /[\s,;]/.test(text[i]!)) i++;
    if (i >= text.length) break;
    const ch = text[i];
    const close = ch === "{" || ch === "[" ? balancedEnd(text, i) : undefined;
    const parsed = close === undefined ? undefined : parseLenientJson(text.slice(i, close));
    if (close === undefined || !parsed?.ok) {
      if (whole) return undefined;
      break;
    }
    values.push(parsed.value);
    i = end = close;
  }
  return values.length > 0 ? { values, end } : undefined;
}

/**
 * The calls a run of values holds: arrays and `{tool_calls: [...]}` are opened; every
 * other value must be a call shape, or the result is undefined. `isTool`: names that may also
 * stand as the only key (`{"read_file": {"path": "a"}}`, Apertus and small models).
 */
export function callsOf(values: unknown[], isTool?: (name: string) => boolean): WrittenCall[] | undefined {
  const calls: WrittenCall[] = [];
  for (const v of values) {
    // {"tool_calls": […]} alone; beside "role" or "content" it is a message, shown as an example.
    // OpenAI's multi_tool_use.parallel leaks as {"tool_uses": […]}.
    const key =
      isRecord(v) && Object.keys(v).length === 1
        ? ["tool_calls", "tool_uses"].find((k) => Array.isArray(v[k]))
        : undefined;
    const inner = Array.isArray(v) ? v : key && isRecord(v) ? (v[key] as unknown[]) : undefined;
    if (inner) {
      if (inner.length === 0) return undefined;
      const nested = callsOf(inner, isTool);
      if (!nested) return undefined;
      calls.push(...nested);
      continue;
    }
    const call = readCallShape(v) ?? nameAsKey(v, isTool);
    if (!call) return undefined;
    calls.push(call);
  }
  return calls;
}

function nameAsKey(v: unknown, isTool: ((name: string) => boolean) | undefined): WrittenCall | undefined {
  if (!isTool || !isRecord(v)) return undefined;
  const keys = Object.keys(v);
  if (keys.length !== 1 || !isTool(keys[0]!)) return undefined;
  const args = readArgs(v[keys[0]!]);
  return args ? { name: keys[0]!, args } : undefined;
}
