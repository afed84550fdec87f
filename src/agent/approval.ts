import type { RunEvent } from "../protocol/agent-event.js";
import type { PermissionDecision, RunConfig } from "../protocol/run-config.js";
import type { Approval, ApprovalKind, McpApprovalHints } from "../tools/types.js";
import { isReadOnlyCommand } from "../tools/shell/safety.js";

export interface ApprovalRequest {
  tool: string;
  kind: ApprovalKind;
  args: Record<string, unknown>;
  preview: string;
  mcp?: McpApprovalHints;
}

/** Asks the UI and waits for its answer (the worker wires this to permission-request / permission-reply). */
export type AskUser = (req: ApprovalRequest & { id: string }) => Promise<PermissionDecision>;

/**
 * The permission policy of DESIGN.md §6, in one place: the mode, the session's
 * "always" list and the read-only shell allowlist decide before the user is asked.
 */
export function createApprover(config: RunConfig, askUser: AskUser, emit: (e: RunEvent) => void) {
  // "Always" answers of this run; the UI keeps them for the session's later runs.
  const always = new Set(config.allowedTools);
  let seq = 0;
  return async function approve(req: ApprovalRequest): Promise<Approval> {
    if (config.permissionMode === "yolo") return { ok: true };
    const mcp = req.mcp && mcpRule(config, req.mcp);
    if (mcp === "free") return { ok: true };
    if (config.permissionMode === "auto-edit" && req.kind === "edit") return { ok: true };
    if (req.kind === "shell" && typeof req.args.command === "string" && isReadOnlyCommand(req.args.command)) {
      return { ok: true };
    }
    if (always.has(req.tool) && mcp !== "ask") return { ok: true };
    if (!config.interactive) {
      return {
        ok: false,
        reason: `${req.tool} changes files or runs commands, and this headless run cannot ask for permission (run with --yolo or --permission-mode auto-edit to allow it).`,
      };
    }
    const id = `perm-${++seq}`;
    const decision = await askUser({ ...req, id });
    switch (decision) {
      case "once":
        return { ok: true };
      case "always":
        always.add(req.tool);
        emit({
          type: "notice",
          level: "info",
          text:
            mcp === "ask"
              ? `${req.tool} is marked destructive by its server: it will still ask each time.`
              : `${req.tool} is allowed for the rest of this session.`,
        });
        return { ok: true };
      case "deny":
        return {
          ok: false,
          reason: `the user denied this ${req.tool} call. Ask them what they want instead, or try another approach.`,
        };
    }
  };
}

/**
 * MCP tools (past yolo): destructiveHint always asks; a server the user's config trusts runs
 * free; readOnlyHint runs free in auto-edit. Otherwise the usual policy decides.
 */
function mcpRule(config: RunConfig, hints: McpApprovalHints): "free" | "ask" | undefined {
  if (hints.destructive) return "ask";
  if (hints.trusted) return "free";
  if (hints.readOnly && config.permissionMode === "auto-edit") return "free";
  return undefined;
}
