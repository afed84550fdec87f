// The one rule for a tool call's arguments, wherever they come from: a provider's native call
// (Ollama sends an object, OpenAI and Anthropic a JSON text), a call recovered from a reply's
// text, or the runner validating what the loop hands it. It lives in providers/ so that
// providers (which must not import agent/) and agent/ and tools/ can all call it.
import { randomBytes } from "node:crypto";
import { isRecord, parseLenientJson } from "./lenient-json.js";

export type ToolArgs = { ok: true; args: Record<string, unknown> } | { ok: false; error: string };

/** JSON strings nested deeper than this are not unwrapped ("\"{\\\"a\\\":1}\"" is two levels). */
const MAX_STRING_LEVELS = 2;

/**
 * Arguments as an object:
 * - an object is taken as it is; nothing (undefined, null, "") is no arguments;
 * - a string is JSON text: strict first, then leniently (trailing commas, single quotes,
 *   Python literals, fences) — safe, because the result must still be one object;
 * - a JSON string that itself holds JSON text (double-encoded, as some servers send) is opened.
 * Anything else (an array, a number, text that is not an object) is an error naming what came.
 */
export function parseToolArgs(raw: unknown, levels = 0): ToolArgs {
  if (raw === undefined || raw === null) return { ok: true, args: {} };
  if (isRecord(raw)) return { ok: true, args: raw };
  if (typeof raw !== "string") return { ok: false, error: `expected a JSON object, got ${describe(raw)}` };
  const text = raw.trim();
  if (text === "") return { ok: true, args: {} };
  const parsed = parseLenientJson(text);
  if (!parsed.ok) return { ok: false, error: `not valid JSON: ${text.slice(0, 200)}` };
  if (typeof parsed.value === "string" && levels < MAX_STRING_LEVELS) return parseToolArgs(parsed.value, levels + 1);
  if (isRecord(parsed.value)) return { ok: true, args: parsed.value };
  return { ok: false, error: `expected a JSON object, got ${describe(parsed.value)}` };
}

function describe(v: unknown): string {
  if (Array.isArray(v)) return "an array";
  if (v === null) return "null";
  return typeof v === "string" ? "a string" : `a ${typeof v}`;
}

const ID_ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789";

/** An id for a call that came without one (old Ollama servers, calls recovered from text). */
export function newCallId(): string {
  return "call_" + [...randomBytes(8)].map((b) => ID_ALPHABET[b % ID_ALPHABET.length]).join("");
}

/**
 * A streamed tool call's name from its deltas. Most servers send it once; Gemini sends it in pieces
 * ("edit_ex" + "isting_file"); others send it whole on every delta (MiniMax M2.7 through NVIDIA
 * NIM, GPT-5: NousResearch/hermes-agent#12230, open-webui/open-webui#22235), where appending gives
 * `read_fileread_file`. A piece that repeats the name so far, or restates it whole, replaces it;
 * any other is a fragment. `offered`: the request's tool names, which settle the rare case of a
 * name that is itself a repetition.
 */
export function mergeToolName(sofar: string, piece: string, offered: readonly string[] = []): string {
  if (sofar === "") return piece;
  const joined = sofar + piece;
  if (offered.includes(joined)) return joined;
  if (piece === sofar || piece.startsWith(sofar) || offered.includes(piece)) return piece;
  return joined;
}
