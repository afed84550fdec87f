// The built-in tools' JSON schemas, computed once at build time. Converting ~18 zod schemas with
// z.toJSONSchema costs ~8 ms at every start that sends tools, and a headless one-shot always does;
// the schemas are constants of the code, so scripts/bundle.mjs computes them from the same
// source it bundles (builtinToolSchemas) and hands them to the bundle as a define.
import type { RunConfig } from "../protocol/run-config.js";
import { toolsFor } from "./catalog.js";
import { toolSpecs } from "./runner.js";

/** What the model is sent as each built-in tool's `parameters`, by tool name. */
export type ToolSchemas = Record<string, Record<string, unknown>>;

/** Every built-in tool's parameters, as toolSpecs derives them from the zod schemas (MCP tools bring their own). */
export function builtinToolSchemas(): ToolSchemas {
  // A model that writes patches gets every built-in, apply_patch included.
  const config = { model: "gpt-oss:20b", cwd: ".", configDir: "." } as RunConfig;
  return Object.fromEntries(toolSpecs(toolsFor(config, undefined, [])).map((s) => [s.name, s.parameters]));
}
