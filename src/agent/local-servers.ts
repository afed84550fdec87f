// What the agent says about the local servers around it: the servers found on loopback when
// Ollama is not where it is expected, and a warning when --provider openai points at an Ollama.
import type { RunEvent } from "../protocol/agent-event.js";
import type { EngineOffer } from "../protocol/engine-offer.js";
import type { RunConfig } from "../protocol/run-config.js";
import { engineOffer } from "./engine-offer.js";
import { DEFAULT_OLLAMA_HOST } from "../providers/ollama/host.js";
import { OPENAI_DEFAULT_BASE_URL } from "../providers/openai/provider-constants.js";
import { describeFound, discoverLocalServers, discoveryPorts, isOllama } from "../providers/discover.js";

export interface DiscoveryOptions {
  /** The ports to look at (tests: the fake servers' OS-chosen ports); default 1234, 8080, 8000. */
  ports?: number[];
  /** The address that counts as "Ollama's default"; default http://127.0.0.1:11434. */
  defaultHost?: string;
}

/**
 * A failure to reach Ollama at its default address becomes an offer of what else answers on this
 * machine, each server named with how it was found and the command line that uses it; when nothing
 * answers (or the embedded engine or its model is missing), an offer to run a model in agent0 itself.
 */
export async function withLocalServers(
  config: RunConfig,
  failure: { message: string; hint?: string },
  opts: DiscoveryOptions = {},
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ message: string; hint?: string; offer?: EngineOffer }> {
  const defaultHost = opts.defaultHost ?? DEFAULT_OLLAMA_HOST;
  if (config.provider !== "ollama" || config.host !== defaultHost || !failure.message.startsWith("Cannot reach Ollama"))
    return withOffer(failure, engineOffer(config, false, env));
  const found = await discoverLocalServers({ ports: opts.ports ?? discoveryPorts(env) });
  if (found.length === 0) return withOffer(failure, engineOffer(config, true, env));
  return {
    message: `${failure.message}. Found on this machine instead: ${found.map((f) => f.name).join(", ")}.`,
    hint: `${describeFound(found)}\n${failure.hint ?? ""}`.trim(),
  };
}

function withOffer<T extends object>(failure: T, offer: EngineOffer | undefined): T & { offer?: EngineOffer } {
  return offer ? { ...failure, offer } : failure;
}

/** --provider openai at an Ollama: its /v1 ignores num_ctx and silently cuts long prompts. */
export async function warnIfOllamaBehindOpenAI(config: RunConfig, emit: (e: RunEvent) => void): Promise<void> {
  if (config.provider !== "openai" || !config.baseUrl || config.baseUrl === OPENAI_DEFAULT_BASE_URL) return;
  if (!(await isOllama(config.baseUrl))) return;
  const origin = config.baseUrl.replace(/\/+$/, "").replace(/\/v1$/, "");
  emit({
    type: "notice",
    level: "warn",
    text:
      `${config.baseUrl} is an Ollama server: its OpenAI-compatible API ignores num_ctx and cuts long prompts at its ` +
      `default context. Use its native API instead: --provider ollama --host ${origin}`,
  });
}
