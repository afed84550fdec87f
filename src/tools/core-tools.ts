import type { ToolDef } from "./types.js";
import { createFileTool, editFileTool, listFilesTool, readFileTool } from "./files/index.js";
import { globFilesTool, grepFilesTool } from "./files/search.js";
import { runShellTool } from "./shell/shell.js";

/** The seven core tools. Memory, skills, web, agents and MCP tools live in their own files. */
export const coreTools: ToolDef[] = [
  readFileTool,
  listFilesTool,
  globFilesTool,
  grepFilesTool,
  createFileTool,
  editFileTool,
  runShellTool,
];
