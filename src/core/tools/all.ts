import type { RunConfig } from "../events.js";
import type { ToolDef } from "./types.js";
import { coreTools } from "./index.js";
import { memoryTools } from "./memory.js";
import { skillsTool } from "./skills.js";

/** Every tool the model may use in a run with this config. */
export async function toolsFor(config: RunConfig): Promise<ToolDef[]> {
  void config;
  return [...coreTools, ...memoryTools, skillsTool] as ToolDef[];
}
