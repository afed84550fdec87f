// The tool set of a small context window (protocol/window.ts): where system prompt and tool
// schemas would otherwise fill most of a 4k window, the model gets the few tools that do the work.
import type { RunConfig } from "../protocol/run-config.js";
import { OPTIONAL_TOOL_FAMILIES, type OptionalToolFamily } from "../protocol/window.js";
import { toolWith, type ToolDef } from "./types.js";

/**
 * The built-in tools of a small window (protocol/window.ts): reading, searching, editing, writing
 * and the shell, which does what the others would (ls, find). With the lean system prompt they stay
 * under a quarter of a 4k window. These built-ins stay out; MCP tools are configured, so they come.
 */
export const SMALL_WINDOW_TOOLS = ["read_file", "grep_files", "edit_file", "write_file", "run_shell_command"];
const LEFT_OUT = [
  "list_files",
  "glob_files",
  "create_file",
  "multi_edit",
  "apply_patch",
  "list_mcp_resources",
  "read_mcp_resource",
  // Background commands are a habit of big models; a small window keeps the shell in front.
  "shell_output",
  "kill_shell",
];

const FAMILY_TOOLS: Record<OptionalToolFamily, (name: string) => boolean> = {
  memory: (n) => n.startsWith("memory_"),
  web: (n) => n === "web_search" || n === "web_fetch",
  todo: (n) => n === "todo_write",
  delegate: (n) => n === "delegate",
  skills: (n) => n === "skills",
};

/**
 * A small window's share of `tools`, each with its brief description. A sub-agent whose type names
 * its tools keeps them all, briefly.
 */
export function smallWindowTools(tools: readonly ToolDef[], config: RunConfig, named = false): ToolDef[] {
  if (named) return tools.map(briefly);
  const families = new Set<OptionalToolFamily>(config.smallWindowTools ?? []);
  if (config.webSearch) families.add("web");
  const family = (name: string) => OPTIONAL_TOOL_FAMILIES.find((f) => FAMILY_TOOLS[f](name));
  const wanted = (t: ToolDef) => {
    if (LEFT_OUT.includes(t.name)) return false;
    const f = family(t.name);
    return f === undefined || families.has(f);
  };
  return tools.filter(wanted).map(briefly);
}

// eslint-disable-next-line no-restricted-syntax -- a cache of a pure function: a ToolDef's brief twin
const brief = new WeakMap<ToolDef, ToolDef>();
/** The tool with its brief description (the same object each time, so its schema is built once). */
function briefly(tool: ToolDef): ToolDef {
  if (!tool.brief) return tool;
  let short = brief.get(tool);
  if (!short) brief.set(tool, (short = toolWith(tool, { description: tool.brief })));
  return short;
}
