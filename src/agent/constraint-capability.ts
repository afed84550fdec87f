// Whether a step may go to this server and model with a reply constraint: never after the server
// refused one (a 400 naming the field), and never where the server says of itself that it cannot
// (Provider.constraintSupport: Ollama's version, the OpenAI-compatible server's kind). The server is
// asked once per session, at the first step that would be constrained, so no start-up pays for it.
import type { RunEvent } from "../protocol/agent-event.js";
import type { RunConfig } from "../protocol/run-config.js";
import type { Provider } from "../providers/types.js";
import type { SessionMemory } from "../tools/session-memory.js";

/** The server and model a refusal or an answer is about. */
export function constraintKey(config: RunConfig): string {
  return `${config.provider} ${config.host} ${config.baseUrl ?? ""} ${config.model}`;
}

/** Refused before, in this session. */
export function constraintRefused(config: RunConfig, memory: SessionMemory): boolean {
  return memory.constraintRefused?.has(constraintKey(config)) ?? false;
}

/** After the server refused a constraint: sent without one for the rest of the session. */
export function noteConstraintRefused(config: RunConfig, memory: SessionMemory): void {
  (memory.constraintRefused ??= new Set()).add(constraintKey(config));
}

/**
 * Asks the server once per session; a server that says it cannot is noted as refusing, with one
 * notice. True when a constraint may be sent (the server can, or does not say).
 */
export async function serverTakesConstraint(
  provider: Provider,
  config: RunConfig,
  memory: SessionMemory,
  signal: AbortSignal,
  emit: (e: RunEvent) => void,
): Promise<boolean> {
  const key = constraintKey(config);
  if (memory.constraintRefused?.has(key)) return false;
  if (!provider.constraintSupport || memory.constraintAsked?.has(key)) return true;
  (memory.constraintAsked ??= new Set()).add(key);
  const said = await provider.constraintSupport(config.model, signal);
  if (said?.supported !== false) return true;
  noteConstraintRefused(config, memory);
  emit({
    type: "notice",
    level: "warn",
    text: `${said.why}: ${config.model}'s replies are not constrained to agent0's schema in this session.`,
  });
  return false;
}
