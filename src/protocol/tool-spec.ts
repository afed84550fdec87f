// Part of protocol/: a tool as a provider sends it to the model (name, when to use it, JSON schema).
// The tools build it (tools/runner.ts toolSpecs); providers and the agent's prompts read it.

/** The shape a provider sends to the model. */
export interface ToolSpec {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}
