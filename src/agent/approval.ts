import type { RunEvent } from "../protocol/agent-event.js";
import type { PermissionDecision, PermissionMode, RunConfig } from "../protocol/run-config.js";
import type { Approval, ApprovalKind, ToolDef } from "../tools/types.js";
import { isReadOnlyCommand } from "../tools/shell/safety.js";

export interface ApprovalRequest {
  tool: string;
  kind: ApprovalKind;
  args: Record<string, unknown>;
  preview: string;
}

/** Asks the UI and waits for its answer (the worker wires this to permission-request / permission-reply). */
export type AskUser = (req: ApprovalRequest & { id: string }) => Promise<PermissionDecision>;

/**
 * The permission policy of DESIGN.md §6, in one place: the mode, the session's
 * "always" list and the read-only shell allowlist decide before the user is asked.
 */
export function createApprover(
  config: RunConfig,
  askUser: AskUser,
  emit: (e: RunEvent) => void,
  /** The mode now: the user may change it while the run goes (Shift+Tab). */
  mode: () => PermissionMode = () => config.permissionMode,
) {
  // "Always" answers of this run; the UI keeps them for the session's later runs.
  const always = new Set(config.allowedTools);
  let seq = 0;
  return async function approve(req: ApprovalRequest): Promise<Approval> {
    if (mode() === "plan") return { ok: false, reason: PLAN_MODE_REFUSAL };
    if (mode() === "yolo") return { ok: true };
    if (mode() === "auto-edit" && req.kind === "edit") return { ok: true };
    if (req.kind === "shell" && typeof req.args.command === "string" && isReadOnlyCommand(req.args.command)) {
      return { ok: true };
    }
    if (always.has(req.tool)) return { ok: true };
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
        emit({ type: "notice", level: "info", text: `${req.tool} is allowed for the rest of this session.` });
        return { ok: true };
      case "deny":
        return {
          ok: false,
          reason: `the user denied this ${req.tool} call. Ask them what they want instead, or try another approach.`,
        };
    }
  };
}

// Plan mode: the model may look but not touch. Tools that are not read-only answer with a
// refusal instead of running (no dialog), and the system prompt says why. delegate stays: its
// sub-agent runs under the same config and so under the same rule.
const PLAN_MODE_ALLOWED = new Set(["delegate"]);

export const PLAN_MODE_REFUSAL =
  "Refused: agent0 is in plan mode, which is read-only — no file changes and no shell commands. " +
  "Finish exploring with the read-only tools, then present your plan as your answer; the user will " +
  "switch modes to carry it out.";

export const PLAN_MODE_PROMPT =
  "# Plan mode\nYou are in plan mode. Explore with read-only tools only (read, list, glob, grep, web, " +
  "todo_write); do not change files or run shell commands — such calls are refused. When you know " +
  "enough, answer with a concise, numbered plan of the changes you would make. The user approves it " +
  "before anything is changed.";

/**
 * The run's tools with plan mode applied. The mode is read at call time, so a switch during a
 * run (Shift+Tab) takes effect at the next call.
 */
export function guardPlanMode(tools: ToolDef[], mode: () => PermissionMode): ToolDef[] {
  return tools.map((tool) =>
    tool.readOnly || PLAN_MODE_ALLOWED.has(tool.name)
      ? tool
      : {
          ...tool,
          run: (args, ctx) =>
            mode() === "plan" ? Promise.resolve({ content: PLAN_MODE_REFUSAL, isError: true }) : tool.run(args, ctx),
        },
  );
}
