// Whether agent0 has been set up, and what it talks to, in one line: `agent0 setup` says it
// before asking, and the ACP auth methods say it to an editor (done, or still to do).
import fs from "node:fs";
import type { RunConfig } from "../protocol/run-config.js";

/** "ollama at http://127.0.0.1:11434, model qwen3:8b": where the model runs and which one. */
export function setupLine(config: Pick<RunConfig, "provider" | "model" | "host" | "baseUrl">): string {
  switch (config.provider) {
    case "ollama":
      return `Ollama at ${config.host}, model ${config.model}`;
    case "embedded":
      return `the built-in engine, model ${config.model}`;
    default:
      return `${config.provider} at ${config.baseUrl ?? "its default address"}, model ${config.model}`;
  }
}

/**
 * Set up means a model was chosen on purpose: in the config file (as `agent0 setup` writes it),
 * AGENT_MODEL, or --model. Otherwise agent0 runs on its defaults, which may name no model the
 * server has.
 */
export function isSetUp(configFile: string, env: NodeJS.ProcessEnv, modelFlag: string | undefined): boolean {
  if (modelFlag || env.AGENT_MODEL) return true;
  try {
    const parsed: unknown = JSON.parse(fs.readFileSync(configFile, "utf8"));
    return typeof parsed === "object" && parsed !== null && typeof (parsed as { model?: unknown }).model === "string";
  } catch {
    return false;
  }
}
