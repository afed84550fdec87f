import type { ToolDef } from "./types.js";
import { webFetchTool } from "./web-fetch.js";
import { webSearchTool } from "./web-search.js";

export { createWebFetchTool, webFetchTool, type WebFetchOptions } from "./web-fetch.js";
export { resolveSearchBackend, webSearchTool, type SearchBackend } from "./web-search.js";

/** web_search and web_fetch, for the tool list. */
export const webTools: ToolDef[] = [webSearchTool, webFetchTool];
