import type { RunConfig } from "../protocol/run-config.js";
import type { McpManager } from "../agent/mcp/servers.js";
import { loadAgentTypes, type AgentType } from "../agent/agent-types.js";
import type { ToolDef } from "./types.js";
import { coreTools } from "./core-tools.js";
import { memoryTools } from "./memory.js";
import { skillsTool } from "./skills.js";
import { webTools } from "./web/index.js";
import { createDelegateTool } from "./delegate.js";

/**
 * Every tool the model may use in a run with this config: built-ins, web, delegate (which sees
 * the whole list, itself included, for nested sub-agents), then the MCP servers' tools.
 */
export function toolsFor(config: RunConfig, mcp?: McpManager, agentTypes?: readonly AgentType[]): ToolDef[] {
  const tools: ToolDef[] = [
    ...coreTools,
    ...memoryTools,
    skillsTool,
    ...webTools,
    ...(mcp?.tools() ?? []),
  ] as ToolDef[];
  const types = agentTypes ?? loadAgentTypes({ cwd: config.cwd, configDir: config.configDir }).types;
  tools.push(createDelegateTool(() => tools, { agentTypes: types }));
  return tools;
}
