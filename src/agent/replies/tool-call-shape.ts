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

/** A positional argument's key until the tool's schema names it (placePositional in call-args.ts). */
export const POSITION = "\u0000";

/**
 * Read a call from a parsed value: `{name, arguments|parameters|args|input}`,
 * `{tool, tool_input}`, `{tool_name, tool_args}`, `{action, action_input}`; arguments may be a
 * JSON string, or plain text (smolagents' `"arguments": "ls -la"`, a positional value). A
 * `functions.` prefix (gpt-oss) is dropped. One key may wrap the call whatever it is named
 * (wrapped). Returns undefined for anything else, including objects with keys a call does not
 * have (a config object that happens to hold "name").
 */
export function readCallShape(value: unknown): WrittenCall | undefined {
  if (!isRecord(value)) return undefined;
  const nameKey = NAME_KEYS.find((k) => typeof value[k] === "string");
  if (!nameKey) return wrapped(value);
  const argKey = ARG_KEYS.find((k) => k in value);
  if (!onlyKeys(value, [nameKey, ...(argKey ? [argKey] : [])])) return undefined;
  const args = argKey ? (readArgs(value[argKey]) ?? plainArgs(value[argKey])) : {};
  if (!args) return undefined;
  const name = (value[nameKey] as string).trim().replace(/^functions\./, "");
  return name === "" ? undefined : { name, args };
}

/**
 * The call one key holds, whatever the key: OpenAI's `function` and legacy `function_call`,
 * Gemini's `functionCall`, AutoGPT's `command` (beside its `thoughts`), MCP's `params` in a
 * JSON-RPC `tools/call` request (beside `jsonrpc`, `id` and the method).
 */
function wrapped(value: Record<string, unknown>): WrittenCall | undefined {
  const holders = Object.keys(value).filter((k) => isRecord(value[k]) && !EXTRA_KEYS.has(k));
  if (holders.length !== 1) return undefined;
  const envelope = typeof value.method === "string" && /call/i.test(value.method) ? ENVELOPE_KEYS : [];
  if (!onlyKeys(value, [holders[0]!, ...envelope])) return undefined;
  const inner = value[holders[0]!] as Record<string, unknown>;
  return NAME_KEYS.some((k) => typeof inner[k] === "string") ? readCallShape(inner) : undefined;
}

const ENVELOPE_KEYS = ["jsonrpc", "method"];

/** Plain text as the arguments: one positional value, named later by the tool's schema. */
function plainArgs(raw: unknown): Record<string, unknown> | undefined {
  if (typeof raw !== "string") return undefined;
  const text = raw.trim();
  return text === "" || /^[{[]/.test(text) ? undefined : { [`${POSITION}0`]: text };
}

/** Arguments as an object by the one rule (providers/tool-args.ts), or undefined. */
export function readArgs(raw: unknown): Record<string, unknown> | undefined {
  const parsed = parseToolArgs(raw);
  return parsed.ok ? parsed.args : undefined;
}

function onlyKeys(value: Record<string, unknown>, allowed: readonly string[]): boolean {
  return Object.keys(value).every((k) => allowed.includes(k) || EXTRA_KEYS.has(k));
}
