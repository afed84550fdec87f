import type { ToolDef } from "../types.js";
import { webFetchTool } from "./fetch.js";
import { webSearchTool } from "./search.js";

export { createWebFetchTool, webFetchTool, type WebFetchOptions } from "./fetch.js";
export { resolveSearchBackend, webSearchTool, type SearchBackend } from "./search.js";

/** web_search and web_fetch, for the tool list. */
export const webTools: ToolDef[] = [webSearchTool, webFetchTool];
