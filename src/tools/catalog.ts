import type { RunConfig } from "../protocol/run-config.js";
import { loadAgentTypes, type AgentType } from "../context/agent-types.js";
import type { ToolDef } from "./types.js";
import { readFileTool } from "./files/read.js";
import { listFilesTool } from "./files/list.js";
import { grepFilesTool } from "./files/search.js";
import { globFilesTool } from "./files/glob.js";
import { createFileTool } from "./files/create.js";
import { editFileTool } from "./files/edit.js";
import { multiEditTool } from "./files/multi-edit.js";
import { writeFileTool } from "./files/write.js";
import { applyPatchTool } from "./files/apply-patch.js";
import { runShellTool } from "./shell/shell.js";
import { killShellTool, shellOutputTool } from "./shell/job-tools.js";
import { memoryTools } from "./memory.js";
import { skillsTool } from "./skills.js";
import { webFetchTool } from "./web/fetch.js";
import { webSearchTool } from "./web/search.js";
import { createDelegateTool } from "./delegate.js";
import { todoWriteTool } from "./todo.js";
import { mcpResourceTools, offersResources, type McpResourceSource } from "./mcp-resources.js";

/** What the catalog needs of the MCP servers (McpManager in the worker): their tools and resources. */
export interface McpToolSource extends McpResourceSource {
  tools(): ToolDef[];
}

// The one list of built-in tools. A new tool is added here and nowhere else.

/** The core tools: files, search and the shell. */
export const coreTools: ToolDef[] = [
  readFileTool,
  listFilesTool,
  globFilesTool,
  grepFilesTool,
  createFileTool,
  writeFileTool,
  editFileTool,
  multiEditTool,
  runShellTool,
  shellOutputTool,
  killShellTool,
];

/**
 * Model families trained on the apply_patch format (gpt-oss, Codex) get that tool too: it is the
 * edit form they write best, and what they write into their text is recovered as that call.
 */
export function writesPatches(model: string): boolean {
  return /gpt-oss|codex/i.test(model);
}

/** web_search and web_fetch. */
export const webTools: ToolDef[] = [webSearchTool, webFetchTool];

/**
 * Every tool the model may use in a run with this config: built-ins, web, delegate (which sees
 * the whole list, itself included, for nested sub-agents), then list_mcp_resources and
 * read_mcp_resource (when a server offers resources) and the MCP servers' tools.
 */
export function toolsFor(config: RunConfig, mcp?: McpToolSource, agentTypes?: readonly AgentType[]): ToolDef[] {
  const tools: ToolDef[] = [
    ...coreTools,
    ...(writesPatches(config.model) ? [applyPatchTool] : []),
    ...memoryTools,
    skillsTool,
    todoWriteTool,
    ...webTools,
    ...(mcp && offersResources(mcp.views()) ? mcpResourceTools(mcp) : []),
    ...(mcp?.tools() ?? []),
  ] as ToolDef[];
  const types = agentTypes ?? loadAgentTypes({ cwd: config.cwd, configDir: config.configDir }).types;
  tools.push(createDelegateTool(() => tools, { agentTypes: types }));
  return tools;
}
