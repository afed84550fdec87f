import type { RunEvent } from "../protocol/agent-event.js";
import type { PermissionDecision, PermissionMode, RunConfig } from "../protocol/run-config.js";
import type { Approval, ApprovalKind, CallVerdict, McpApprovalHints } from "../tools/types.js";
import { isReadOnlyCommand } from "../tools/shell/safety.js";
import { gitProgramKeys } from "../safety/git-safety.js";
import { followedLinksReason, outsidePaths } from "./approval-rules.js";
import { protectedPathReason } from "../safety/protected-paths.js";
import { decide, prefixRuleFor, type PermissionRule } from "../context/permission-rules.js";

export interface ApprovalRequest {
  tool: string;
  kind: ApprovalKind;
  args: Record<string, unknown>;
  preview: string;
  mcp?: McpApprovalHints;
  /** The call this asks for (its approval stage sets it). */
  callId?: string;
}

/** The user's answer; a denial may carry what they typed for the model. */
export interface PermissionAnswer {
  decision: PermissionDecision;
  reason?: string;
  always?: PermissionAnswerRule;
}

/** The user's answer; a denial may carry what they typed for the model; "always" may name the rule it keeps. */
export interface PermissionAnswerRule {
  rule: string;
  scope: "session" | "project";
}

/** What `a` offers for a shell command: the exact command, its prefix for the project, the tool for the session. */
export interface AlwaysOption {
  label: string;
  rule: string;
  scope: "session" | "project";
}

/** Asks the UI and waits for its answer (the worker wires this to permission-request / permission-reply). */
export type AskUser = (
  req: ApprovalRequest & { id: string; why?: string; allowKey: string; alwaysOptions?: AlwaysOption[] },
) => Promise<PermissionAnswer>;

/** The host a web_fetch approval is for (lower case, with its port when it has one). */
export function fetchHost(url: unknown): string {
  try {
    return new URL(String(url)).host.toLowerCase();
  } catch {
    return String(url);
  }
}

/** What "always" remembers in the session's allowedTools: the tool, or for web_fetch the tool and host. */
export function allowKeyOf(req: ApprovalRequest): string {
  if (req.kind === "provider") return `${req.tool}:${String(req.args.model)}`;
  return req.kind === "fetch" ? `${req.tool}:${fetchHost(req.args.url)}` : req.tool;
}

/** The files an edit names: `path`, a deletion, or every file of an apply_patch patch. */
export function editedPaths(args: Record<string, unknown>): string[] {
  const paths = [args.path, args.delete].filter((p): p is string => typeof p === "string");
  if (typeof args.patch === "string")
    for (const m of args.patch.matchAll(/^\*\*\* (?:Add|Update|Delete) File: (.+)$|^\*\*\* Move to: (.+)$/gm))
      paths.push((m[1] ?? m[2]!).trim());
  return paths;
}

/**
 * Why this call must ask even where the mode or the allowlist would let it run; undefined when
 * nothing special applies. Protected paths, reads outside the project and git config that runs
 * programs hold in every mode but yolo.
 */
async function mustAsk(config: RunConfig, req: ApprovalRequest): Promise<string | undefined> {
  if (req.kind === "edit") {
    for (const file of editedPaths(req.args)) {
      const why = protectedPathReason(file, config.cwd);
      if (why) return why;
    }
    return undefined;
  }
  if (req.kind === "shell" && typeof req.args.command === "string") {
    if (req.args.unsandboxed === true && config.sandbox === "workspace-write")
      return "The model asks to run this outside the sandbox (network, writes outside the project).";
    if (!isReadOnlyCommand(req.args.command)) return undefined;
    const outside = outsidePaths(req.args.command, config.cwd, config.addDirs);
    if (outside.length) return `Reads outside the project: ${outside.join(", ")}`;
    const links = followedLinksReason(req.args.command, config.cwd);
    if (links) return links;
    if (/^\s*git\s/.test(req.args.command)) {
      const keys = await gitProgramKeys(config.cwd);
      if (keys.length) return `This repository's git config runs programs (${keys.join(", ")}).`;
    }
  }
  return undefined;
}

/** Whether the mode, the allowlist or the session's "always" answers let the call run unasked. */
function allowedWithoutAsking(
  config: RunConfig,
  mode: PermissionMode,
  req: ApprovalRequest,
  always: Set<string>,
): boolean {
  if (req.kind === "fetch") {
    const host = fetchHost(req.args.url);
    const configured = (config.webFetch?.allow ?? []).some((h) => h.toLowerCase() === host);
    return configured || always.has(allowKeyOf(req));
  }
  if (mode === "auto-edit" && req.kind === "edit") return true;
  if (req.kind === "shell" && typeof req.args.command === "string") {
    if (isReadOnlyCommand(req.args.command)) return true;
    // Inside the sandbox a command cannot write outside the project nor reach the network.
    if (config.sandbox === "workspace-write" && mode === "auto-edit") return true;
  }
  return always.has(req.tool);
}

/**
 * The permission policy of DESIGN.md §6, in one place: the mode, the session's "always" list,
 * the read-only shell allowlist and the rules of approval-rules.ts decide before the user is asked.
 */
export function createApprover(
  config: RunConfig,
  askUser: AskUser,
  emit: (e: RunEvent) => void,
  /** The mode now: the user may change it while the run goes (Shift+Tab). */
  mode: () => PermissionMode = () => config.permissionMode,
) {
  // "Always" answers of this run; the UI keeps them for the session's later runs. An entry with a
  // specifier (`run_shell_command(git status)`) is a rule of the session.
  const always = new Set(config.allowedTools);
  const sessionRules = (): PermissionRule[] =>
    [...always].filter((k) => k.includes("(")).map((rule) => ({ rule, kind: "allow" as const, source: "session" }));
  let seq = 0;
  return async function approve(req: ApprovalRequest, verdict: CallVerdict = {}): Promise<Approval> {
    const now = mode();
    // Plan mode and the deny rules were decided by the call's stages (agent/tool-call.ts); here the
    // mode, the "always" list and the user decide what is left.
    // A repository's agent file must not send the user's code and key to a hosted model unasked:
    // never in plan mode, and asked in every other mode, yolo included (it is no tool action).
    const hosted = req.kind === "provider";
    if (hosted && now === "plan") return { ok: false, reason: PLAN_MODE_HOSTED_REFUSAL };
    if (hosted && always.has(allowKeyOf(req))) return { ok: true };
    // The call's rule (deny > ask > allow decided once), else an "always" rule of this session.
    const rule = verdict.rule ?? decide(sessionRules(), ruleTarget(config, req));
    // Yolo asks nothing, but a PreToolUse hook of the user's that answers "ask" chose to ask.
    if (now === "yolo" && !hosted && verdict.hook !== "ask") return { ok: true };
    const why = hosted ? HOSTED_WHY : await mustAsk(config, req);
    const forced = hosted || rule?.kind === "ask" || verdict.hook === "ask";
    if (!why && !forced && (rule?.kind === "allow" || verdict.hook === "allow")) return { ok: true };
    // An MCP server's annotations: readOnlyHint of a trusted server runs free, destructiveHint asks always.
    const mcp = req.mcp && mcpRule(now, req.mcp);
    if (!why && !forced && mcp === "free") return { ok: true };
    if (!why && !forced && mcp !== "ask" && allowedWithoutAsking(config, now, req, always)) return { ok: true };
    if (!config.interactive) {
      const what = req.kind === "fetch" ? `fetching from ${fetchHost(req.args.url)}` : req.tool;
      emit({
        type: "denied",
        tool: req.tool,
        preview: req.preview,
        why,
        ...(req.callId ? { callId: req.callId } : {}),
      });
      return {
        ok: false,
        reason:
          `${what} needs the user's say${why ? ` (${why})` : ""}, and this headless run cannot ask for permission ` +
          `(run with --yolo or --permission-mode auto-edit to allow it).`,
      };
    }
    const id = `perm-${++seq}`;
    const allowKey = allowKeyOf(req);
    const alwaysOptions = req.kind === "shell" ? shellAlwaysOptions(String(req.args.command ?? "")) : undefined;
    const shownWhy =
      why ?? (rule?.kind === "ask" ? `The rule ${rule.rule} (${rule.source}) asks each time.` : undefined);
    const answer = await askUser({
      ...req,
      id,
      allowKey,
      ...(shownWhy ? { why: shownWhy } : {}),
      ...(alwaysOptions ? { alwaysOptions } : {}),
    });
    switch (answer.decision) {
      case "once":
        return { ok: true };
      case "always": {
        // A protected path, an outside read or a destructive MCP tool asks every time: "always" covers the rest only.
        const kept = answer.always?.rule ?? allowKey;
        // Recorded here once: this run's later calls see the set, later runs the UI's copy (the event).
        always.add(kept);
        emit({ type: "allowed", key: kept });
        if (answer.always) {
          const where =
            answer.always.scope === "project" ? "in this project (saved to its settings)" : "for this session";
          emit({ type: "notice", level: "info", text: `Allowed ${where}: ${kept}.` });
          return { ok: true };
        }
        const what =
          req.kind === "fetch"
            ? `web_fetch of ${fetchHost(req.args.url)}`
            : hosted
              ? `delegating to ${String(req.args.model)}`
              : req.tool;
        emit({
          type: "notice",
          level: "info",
          text:
            mcp === "ask"
              ? `${req.tool} is marked destructive by its server: it will still ask each time.`
              : `${what} is allowed for the rest of this session.`,
        });
        return { ok: true };
      }
      case "deny":
        return {
          ok: false,
          reason: answer.reason
            ? answer.reason
            : `the user denied this ${req.tool} call. Ask them what they want instead, or try another approach.`,
        };
    }
  };
}

/** What a rule is matched against for this request: its tool and arguments, the files an edit names. */
function ruleTarget(config: RunConfig, req: ApprovalRequest) {
  return {
    tool: req.tool,
    args: req.args,
    cwd: config.cwd,
    ...(req.kind === "edit" ? { paths: editedPaths(req.args) } : {}),
  };
}

export function deniedByRule(rule: PermissionRule): string {
  return `Refused by the permission rule deny ${rule.rule} (${rule.source}). Do not try to get around it; ask the user if it is needed.`;
}

/** `a` on a shell command: this exact command (session), its prefix (project), the tool (session). */
function shellAlwaysOptions(command: string): AlwaysOption[] {
  const options: AlwaysOption[] = [
    { label: "this exact command, for this session", rule: `run_shell_command(${command})`, scope: "session" },
  ];
  const prefix = prefixRuleFor(command);
  if (prefix) options.push({ label: `${prefix}, in this project`, rule: prefix, scope: "project" });
  options.push({ label: "every shell command, for this session", rule: "run_shell_command", scope: "session" });
  return options;
}

/**
 * MCP tools (past yolo): destructiveHint always asks; a server the user's config trusts runs
 * free; readOnlyHint runs free in auto-edit. Otherwise the usual policy decides.
 */
function mcpRule(mode: PermissionMode, hints: McpApprovalHints): "free" | "ask" | undefined {
  if (hints.destructive) return "ask";
  if (hints.trusted) return "free";
  if (hints.readOnly && mode === "auto-edit") return "free";
  return undefined;
}

// Plan mode: tools that are not read-only answer with this refusal instead of running (no
// dialog; the call's mode stage), and the system prompt says why.
export const PLAN_MODE_REFUSAL =
  "Refused: agent0 is in plan mode, which is read-only — no file changes and no shell commands. " +
  "Finish exploring with the read-only tools, then present your plan as your answer; the user will " +
  "switch modes to carry it out.";

const HOSTED_WHY = "A project's agent file chose where your code goes: asked in every mode.";

export const PLAN_MODE_HOSTED_REFUSAL =
  "Refused: agent0 is in plan mode, and a project's agent may not move the work to a hosted model in plan mode. " +
  "Use another agent type, or do the task yourself.";

// The mode notes the model reads are one rule for every driver (protocol/mode-notes.ts).
export { PLAN_MODE_PROMPT, PLAN_MODE_OFF, toldMode, modeReminder } from "../protocol/mode-notes.js";
