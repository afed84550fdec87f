// A reasoning model that writes its whole call inside its thinking and leaves the answer empty
// (ollama/ollama#10976: qwen3 with think and tools answers empty; CambrianTech/continuum#2136:
// DeepSeek commits its act inside reasoning_content and leaves content empty). The call counts only when the thinking *ends* with it: a call mentioned
// and then thought past is a thought, not a call.

import { recoverToolCalls, type RecoveredCall, type ToolShape } from "./text-tool-calls.js";

/** How far back from the end of the thinking a call may start (lines). */
const TAIL_LINES = 40;

/**
 * The call(s) that end a reply's thinking, read by the same rules as a reply's text (names among
 * the run's tools, arguments that validate), when nothing but the call follows the line it starts on.
 */
export function callEndingThinking(thinking: string, tools: readonly ToolShape[]): RecoveredCall[] {
  const text = thinking.trimEnd();
  if (text === "") return [];
  let at = text.length;
  for (let n = 0; n < TAIL_LINES && at > 0; n++) {
    at = text.lastIndexOf("\n", at - 1);
    const tail = text.slice(at + 1);
    const read = recoverToolCalls(tail, tools);
    if (read.calls.length > 0 && read.rest.trim() === "") return read.calls;
    if (at < 0) break;
  }
  return [];
}
