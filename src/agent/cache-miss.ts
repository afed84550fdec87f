// A turn that re-read most of a prompt the server should have held in its cache (issue 43): the
// request extends the one before it in the same run, yet the server's cached-token count
// (llama.cpp's timings.cache_n, Ollama's prompt_eval_cached_count, vLLM's and OpenAI's
// usage.prompt_tokens_details.cached_tokens) says it kept little of it. Said once a session, with
// the likely cause: what else used the server in between.
import type { RunConfig } from "../protocol/run-config.js";

/** The request before this one in the run: what the server read and wrote (its cache holds both). */
export interface PreviousRequest {
  tokens: number;
  /** A sub-agent ran between the two requests (a delegate call). */
  subAgentBetween: boolean;
}

/** Below this a prompt is too short for a cold read to be worth a word. */
const WORTH_TELLING = 1024;

/** The notice, or undefined when the cache held what it should have (or nothing is known). */
export function cacheMissNotice(
  previous: PreviousRequest | undefined,
  cachedTokens: number | undefined,
  promptTokens: number | undefined,
  config: Pick<RunConfig, "provider" | "slots">,
): string | undefined {
  if (!previous || cachedTokens === undefined || promptTokens === undefined) return undefined;
  const expected = Math.min(previous.tokens, promptTokens);
  if (expected < WORTH_TELLING || cachedTokens >= expected * 0.5) return undefined;
  const n = (v: number) => v.toLocaleString("en-US");
  return `The server re-read ${n(promptTokens - cachedTokens)} of ${n(promptTokens)} prompt tokens that it should have had cached (it kept ${n(cachedTokens)}): ${likelyCause(previous, config)}`;
}

function likelyCause(previous: PreviousRequest, config: Pick<RunConfig, "provider" | "slots">): string {
  const slots = config.slots ?? 0;
  if (config.provider === "ollama")
    return "likely the model was reloaded (another model, another num_ctx, or keep_alive ran out) or another client's request used it in between.";
  if (previous.subAgentBetween && slots < 2)
    return "likely agent0's sub-agent took the server's only slot. Start llama-server with --parallel 2 (or more): agent0 then keeps the conversation in one slot and sub-agents in another.";
  if (slots >= 2)
    return "likely another client's request took this conversation's slot, or the server evicted its cache (--cache-reuse and a larger --ctx-size help).";
  return "likely another client's request took the server's slot in between, or the server does not keep a prompt cache (llama-server: --parallel 2 or more lets agent0 pin its conversation to a slot).";
}
