// The many JSON shapes in which models write "call tool X with arguments Y", read into
// one. Shared by text tool-call recovery and the JSON reply protocol.

import { isRecord } from "../../providers/lenient-json.js";
import { parseToolArgs } from "../../providers/tool-args.js";

export interface WrittenCall {
  name: string;
  args: Record<string, unknown>;
}

const NAME_KEYS = ["tool_name", "name", "function_name", "tool", "action", "function", "recipient_name"] as const;
const ARG_KEYS = [
  "tool_args",
  "arguments",
  "parameters",
  "args",
  "input",
  "tool_input",
  "action_input",
  "params",
  "function_args",
  "tool_arguments",
  "kwargs",
] as const;
/** Keys that may sit beside name and arguments without making the object something else. */
const EXTRA_KEYS: ReadonlySet<string> = new Set([
  "type",
  "id",
  "call_id",
  "tool_call_id",
  "index",
  "thoughts",
  "thought",
  "headline",
  "reasoning",
]);

/**
 * Read a call from a parsed value: `{name, arguments|parameters|args|input}`,
 * `{function: {name, arguments}}`, `{tool, tool_input}`, `{tool_name, tool_args}`,
 * `{action, action_input}`; arguments may be a JSON string. A `functions.` prefix
 * (gpt-oss) is dropped. Returns undefined for anything else, including objects with
 * keys a call does not have (a config object that happens to hold "name").
 */
export function readCallShape(value: unknown): WrittenCall | undefined {
  if (!isRecord(value)) return undefined;
  if (isRecord(value.function)) {
    const inner = readCallShape(value.function);
    return inner && onlyKeys(value, ["function"]) ? inner : undefined;
  }
  const nameKey = NAME_KEYS.find((k) => typeof value[k] === "string");
  if (!nameKey) return undefined;
  const argKey = ARG_KEYS.find((k) => k in value);
  if (!onlyKeys(value, [nameKey, ...(argKey ? [argKey] : [])])) return undefined;
  const args = argKey ? readArgs(value[argKey]) : {};
  if (!args) return undefined;
  const name = (value[nameKey] as string).trim().replace(/^functions\./, "");
  return name === "" ? undefined : { name, args };
}

/** Arguments as an object by the one rule (providers/tool-args.ts), or undefined. */
export function readArgs(raw: unknown): Record<string, unknown> | undefined {
  const parsed = parseToolArgs(raw);
  return parsed.ok ? parsed.args : undefined;
}

function onlyKeys(value: Record<string, unknown>, allowed: readonly string[]): boolean {
  return Object.keys(value).every((k) => allowed.includes(k) || EXTRA_KEYS.has(k));
}
