// The MCP trust dialog's choices: update/mcp-trust.ts moves between them, view/mcp-trust.ts lists them.
import type { McpTrustChoice, McpTrustDialog } from "../model.js";

/** The choices the dialog offers now: "all" and "none" only while more than one server waits. */
export function trustChoices(dialog: McpTrustDialog): McpTrustChoice[] {
  return dialog.servers.length > 1 ? ["allow-one", "deny-one", "allow-all", "deny-all"] : ["allow-one", "deny-one"];
}
