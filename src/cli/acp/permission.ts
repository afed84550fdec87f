// The TUI's permission dialog as the editor's `session/request_permission`: the whole change
// (diff, command, why it asks), and allow once, always allow for the session, reject, or — where
// the editor offers elicitation forms — reject and tell the agent why.
import * as acp from "@agentclientprotocol/sdk";
import type { PermissionDecision } from "../../protocol/run-config.js";
import type { Permission } from "../hosted-session.js";
import { previewContent, textContent, toolKind, toolLocations } from "./tool-calls.js";

export interface PermissionAsk {
  client: acp.AgentContext;
  sessionId: string;
  capabilities: acp.ClientCapabilities;
  cwd: string;
  /** The tool call the editor was told of; undefined when none matches (the request names the tool). */
  toolCallId?: string;
}

/** Asks the editor; anything but a choice to allow (no answer, an error) is a denial. */
export async function askEditor(
  ask: PermissionAsk,
  req: Permission,
): Promise<{ decision: PermissionDecision; reason?: string }> {
  const canAskWhy = ask.capabilities.elicitation?.form != null;
  const options: acp.PermissionOption[] = [
    { optionId: "once", name: "Allow", kind: "allow_once" },
    { optionId: "always", name: `Always allow ${req.allowKey} in this session`, kind: "allow_always" },
    { optionId: "deny", name: "Reject", kind: "reject_once" },
    ...(canAskWhy
      ? [{ optionId: "deny-why", name: "Reject, and tell the agent why…", kind: "reject_once" as const }]
      : []),
  ];
  const content = previewContent(req.preview, ask.cwd);
  if (req.why) content.unshift(textContent(`⚠ ${req.why}`));
  const toolCallId = ask.toolCallId ?? req.id;
  try {
    const answer = await ask.client.request(acp.methods.client.session.requestPermission, {
      sessionId: ask.sessionId,
      toolCall: {
        toolCallId,
        ...(ask.toolCallId ? {} : { title: req.tool }),
        status: "pending",
        kind: toolKind(req.tool, req.args),
        content,
        locations: toolLocations(req.tool, req.args, ask.cwd),
        rawInput: req.args,
      },
      options,
    });
    if (answer.outcome.outcome !== "selected") return { decision: "deny" };
    const id = answer.outcome.optionId;
    if (id === "once" || id === "always") return { decision: id };
    const reason = id === "deny-why" ? await askWhy(ask, toolCallId, req.tool) : undefined;
    return { decision: "deny", ...(reason ? { reason } : {}) };
  } catch {
    // The editor could not answer (it went away, or refused the request): nothing runs unapproved.
    return { decision: "deny" };
  }
}

async function askWhy(ask: PermissionAsk, toolCallId: string, tool: string): Promise<string | undefined> {
  try {
    const answer = await ask.client.request(acp.methods.client.elicitation.create, {
      mode: "form",
      sessionId: ask.sessionId,
      toolCallId,
      message: `Why not? What should the agent do instead of this ${tool} call?`,
      requestedSchema: {
        type: "object",
        properties: { reason: { type: "string", title: "Reason" } },
        required: ["reason"],
      },
    });
    const value =
      answer.action === "accept" ? (answer.content as Record<string, unknown> | undefined)?.reason : undefined;
    return typeof value === "string" && value.trim() ? `The user denied this call: ${value.trim()}` : undefined;
  } catch {
    return undefined;
  }
}
