// One ACP session: a HostedSession whose events become `session/update`s and whose approvals
// become `session/request_permission`s. Several live side by side in one `agent0 acp` process,
// each with its own history, mode, approvals, checkpoints and cancel.
import path from "node:path";
import * as acp from "@agentclientprotocol/sdk";
import type { AgentEvent, DoneReason } from "../../protocol/agent-event.js";
import type { PermissionMode } from "../../protocol/run-config.js";
import { assertNever } from "../../protocol/assert-never.js";
import { sessionTitle } from "../../session/list.js";
import { sanitize } from "../../render/sanitize.js";
import { expandSkill, parseSlash, type Skill } from "../../context/skills.js";
import { INIT_PROMPT } from "../../context/init-prompt.js";
import { findPrompt, promptArguments, promptUsage } from "../../context/mcp-prompts.js";
import type { ConversationMessage, ImageAttachment } from "../../protocol/conversation.js";
import type { HostedSession, Permission, PromptOutcome } from "../hosted-session.js";
import { planOf, resultContent, toolKind, toolLocations } from "./tool-calls.js";
import { askEditor } from "./permission.js";
import { availableCommands } from "./commands.js";
import { promptTurn, type PromptTurn } from "./prompt.js";
import { MODE_NAMES } from "./modes.js";
import { configOptions, readChange, type ConfigState } from "./config-options.js";

/** What a run's end tells the editor. A run that failed is a JSON-RPC error with its message. */
export function stopReason(reason: DoneReason): acp.StopReason | undefined {
  switch (reason) {
    case "complete":
      return "end_turn";
    case "interrupted":
      return "cancelled";
    case "stuck":
    case "max-steps":
      return "max_turn_requests";
    case "error":
      return undefined;
    default:
      return assertNever(reason);
  }
}

export interface AcpSessionOptions {
  id: string;
  hosted: HostedSession;
  client: acp.AgentContext;
  capabilities: acp.ClientCapabilities;
  modes: readonly PermissionMode[];
  skills: Skill[];
  /** The server's models when the session opened (the model config option's choices). */
  models: string[];
  /** What the user should know of the session's start (a project MCP server not started…). */
  warnings?: string[];
}

export class AcpSession {
  /** Shell commands running in the editor's terminal, by tool call. */
  private readonly terminals = new Map<string, string>();
  /** Tool calls started and not ended, by id: a permission request names its call's id. */
  private readonly open = new Set<string>();
  /** Updates go out in order, one after another. */
  private sending: Promise<void> = Promise.resolve();

  constructor(private readonly opts: AcpSessionOptions) {}

  get id(): string {
    return this.opts.id;
  }

  get hosted(): HostedSession {
    return this.opts.hosted;
  }

  modeState(): acp.SessionModeState {
    return {
      currentModeId: this.hosted.config.permissionMode,
      availableModes: this.opts.modes.map((id) => ({ id, ...MODE_NAMES[id] })),
    };
  }

  setMode(modeId: string): void {
    const mode = this.opts.modes.find((m) => m === modeId);
    if (!mode) {
      throw acp.RequestError.invalidParams(
        { modeId },
        `unknown mode "${modeId}": this server offers ${this.opts.modes.join(", ")}` +
          (modeId === "yolo" ? " (yolo only when started with --yolo)" : ""),
      );
    }
    this.hosted.setMode(mode);
    this.update({ sessionUpdate: "current_mode_update", currentModeId: mode });
    this.update({ sessionUpdate: "config_option_update", configOptions: this.configOptions() });
  }

  configOptions(): acp.SessionConfigOption[] {
    return configOptions(this.configState());
  }

  /** `session/set_config_option`: applies from the next prompt; every option goes back, also as an update. */
  setConfigOption(configId: string, value: string | boolean): acp.SessionConfigOption[] {
    const read = readChange(this.configState(), configId, value);
    if (!read.ok) throw acp.RequestError.invalidParams({ configId, value }, read.error);
    const change = read.change;
    switch (change.kind) {
      case "mode":
        this.setMode(change.mode);
        break;
      case "model":
        this.hosted.configure({ model: change.model });
        this.update({ sessionUpdate: "config_option_update", configOptions: this.configOptions() });
        break;
      case "thinking":
        this.hosted.configure({ think: change.think });
        this.update({ sessionUpdate: "config_option_update", configOptions: this.configOptions() });
        break;
      default:
        assertNever(change);
    }
    return this.configOptions();
  }

  private configState(): ConfigState {
    const c = this.hosted.config;
    return { model: c.model, models: this.opts.models, think: c.think, mode: c.permissionMode, modes: this.opts.modes };
  }

  /** Once the editor knows the session: its commands, and the warnings of its start as notices. */
  greet(): void {
    this.announceCommands();
    for (const w of this.opts.warnings ?? []) this.notice("warning", w);
  }

  /** The slash commands the editor can offer: built-ins that make sense there, skills, custom commands, MCP prompts. */
  announceCommands(): void {
    this.update({
      sessionUpdate: "available_commands_update",
      availableCommands: availableCommands(this.opts.skills, this.hosted.mcpServers),
    });
  }

  /** Resolves once every update so far has gone out (session/load answers after its replay). */
  flushed(): Promise<void> {
    return this.sending;
  }

  /** The saved conversation as the updates that would have shown it. */
  replay(conversation: ConversationMessage[]): void {
    const labels = new Map(
      conversation.flatMap((m) => (m.toolCallId && m.display ? [[m.toolCallId, m.display.label]] : [])),
    );
    for (const m of conversation) {
      if (m.role === "user") {
        this.update({ sessionUpdate: "user_message_chunk", content: { type: "text", text: m.typed ?? m.content } });
      } else if (m.role === "assistant") {
        if (m.thinking) this.chunk("agent_thought_chunk", m.thinking);
        if (m.content) this.chunk("agent_message_chunk", m.content);
        for (const call of m.toolCalls ?? [])
          this.toolStart(call.id, call.name, call.args, labels.get(call.id) ?? call.name);
      } else if (m.role === "tool" && m.toolCallId) {
        const display = m.display ?? { label: m.toolName ?? "tool", ok: true, summary: "", output: m.content };
        this.toolEnd(m.toolCallId, display);
      }
    }
  }

  async prompt(blocks: acp.ContentBlock[]): Promise<acp.PromptResponse> {
    const busy = () =>
      acp.RequestError.invalidRequest(
        undefined,
        `session ${this.id} is already answering a prompt: wait for its answer, or send session/cancel`,
      );
    if (this.hosted.running) throw busy();
    const turn = await promptTurn(blocks, this.hosted.config.cwd);
    for (const p of turn.problems) this.chunk("agent_message_chunk", `⚠ ${p}\n\n`);
    const slash = parseSlash(turn.typed);
    if (slash) {
      const done = await this.command(slash.name, slash.args, turn);
      if (done) return done;
    }
    if (this.hosted.running) throw busy();
    // The first request names the session (as session/list and `agent0 sessions` show it).
    if (!this.hosted.conversation.some((m) => m.role === "user"))
      this.update({
        sessionUpdate: "session_info_update",
        title: sanitize(sessionTitle(turn.message)),
        updatedAt: new Date().toISOString(),
      });
    return this.finish(await this.hosted.prompt(turn.message, (e) => this.event(e)));
  }

  /**
   * A slash command the editor sent as text: built-ins that make sense in an editor run here (an
   * answer), skills and MCP prompts become the turn's text; anything else goes to the model as typed.
   */
  private async command(name: string, args: string, turn: PromptTurn): Promise<acp.PromptResponse | undefined> {
    const replaceTyped = (text: string, images?: ImageAttachment[]) => {
      turn.message = { ...turn.message, content: turn.message.content.replace(turn.typed, text), typed: turn.typed };
      if (images?.length) turn.message.images = [...(turn.message.images ?? []), ...images];
    };
    switch (name) {
      case "init":
        replaceTyped(args ? `${INIT_PROMPT}\n\n${args}` : INIT_PROMPT);
        return undefined;
      case "compact":
        return this.finish(await this.hosted.compact((e) => this.event(e)));
      case "undo": {
        const undone = await this.hosted.undo(args === "force");
        this.chunk("agent_message_chunk", undone.text);
        await this.sending;
        return { stopReason: "end_turn" };
      }
      default:
        break;
    }
    const skill = this.opts.skills.find((s) => s.name === name);
    if (skill) {
      const expanded = expandSkill(skill, args);
      if (!expanded.ok) throw acp.RequestError.invalidParams(undefined, expanded.error);
      replaceTyped(expanded.prompt);
      return undefined;
    }
    const found = findPrompt(this.hosted.mcpServers, name);
    if (found) {
      const parsed = promptArguments(found.prompt, args);
      if (!parsed.ok)
        throw acp.RequestError.invalidParams(
          undefined,
          `/${name} needs ${parsed.missing.join(", ")}. Usage: /${name} ${promptUsage(found.prompt)}`,
        );
      const rendered = await this.hosted.expandMcp({
        typed: turn.typed,
        text: "",
        prompt: { server: found.server, name: found.prompt.name, args: parsed.values },
        resources: [],
      });
      if (!rendered.ok) throw acp.RequestError.internalError(undefined, `/${name}: ${rendered.error}`);
      replaceTyped(rendered.content, rendered.images);
    }
    return undefined;
  }

  /** The prompt's answer once its updates are out: a stop reason, or the run's error. */
  private async finish(outcome: PromptOutcome): Promise<acp.PromptResponse> {
    await this.sending;
    this.open.clear();
    const stop = stopReason(outcome.reason);
    if (!stop) throw acp.RequestError.internalError(undefined, outcome.error ?? "the run failed");
    return { stopReason: stop };
  }

  /** Events of no run: the MCP servers changed, so their prompts as commands may have. */
  idleEvent(e: AgentEvent): void {
    if (e.type === "mcp-state") this.announceCommands();
  }

  private event(e: AgentEvent): void {
    switch (e.type) {
      case "text":
        this.chunk("agent_message_chunk", e.delta);
        break;
      case "thinking":
        this.chunk("agent_thought_chunk", e.delta);
        break;
      case "tool-start":
        this.open.add(e.id);
        this.toolStart(e.id, e.name, e.args, e.label, e.parentId);
        break;
      case "tool-end":
        this.open.delete(e.id);
        this.toolEnd(e.id, e.display);
        break;
      case "permission-request":
        // Nothing runs unapproved: a failure to ask is a denial.
        this.askPermission(e).catch(() => this.hosted.answer(e.id, "deny"));
        break;
      case "usage":
        this.update({
          sessionUpdate: "usage_update",
          used: e.promptTokens + e.completionTokens,
          size: e.contextWindow,
        });
        break;
      case "compacted":
        this.chunk("agent_message_chunk", `Compacted the conversation: about ${e.before} → ${e.after} tokens.\n`);
        break;
      case "notice":
        if (e.level !== "info") this.notice(e.level === "warn" ? "warning" : "error", e.text);
        break;
      case "denied":
        this.notice("warning", `denied: ${e.tool}${e.why ? ` (${e.why})` : ""}`);
        break;
      case "error":
        // The prompt's JSON-RPC error carries it too; the answer so far stays readable beside it.
        this.chunk("agent_message_chunk", `\n\n**Error:** ${e.message}${e.hint ? `\n${e.hint}` : ""}\n`);
        break;
      default:
        break;
    }
  }

  private toolStart(id: string, name: string, args: Record<string, unknown>, title: string, parentId?: string): void {
    const cwd = this.hosted.config.cwd;
    this.update({
      sessionUpdate: "tool_call",
      toolCallId: id,
      title,
      kind: toolKind(name, args),
      status: "in_progress",
      locations: toolLocations(name, args, cwd),
      rawInput: args,
      ...(parentId ? { _meta: { "agent0/parentToolCallId": parentId } } : {}),
    });
    if (name === "todo_write") {
      const entries = planOf(args);
      if (entries) this.update({ sessionUpdate: "plan", entries });
    }
  }

  /** A command of this call runs in the editor's terminal: the call shows it live. */
  showTerminal(callId: string, terminalId: string): void {
    this.terminals.set(callId, terminalId);
    this.update({ sessionUpdate: "tool_call_update", toolCallId: callId, content: [{ type: "terminal", terminalId }] });
  }

  private toolEnd(id: string, display: Parameters<typeof resultContent>[0]): void {
    const cwd = this.hosted.config.cwd;
    const terminalId = this.terminals.get(id);
    this.terminals.delete(id);
    this.update({
      sessionUpdate: "tool_call_update",
      toolCallId: id,
      status: display.ok ? "completed" : "failed",
      title: display.label,
      // The terminal keeps showing what the command printed after it is released.
      content: terminalId ? [{ type: "terminal", terminalId }] : resultContent(display, cwd),
      ...(display.path ? { locations: [{ path: path.resolve(cwd, display.path) }] } : {}),
    });
  }

  /** Asks the editor, once the updates before the request are out, and answers the agent. */
  private async askPermission(req: Permission): Promise<void> {
    // By the call's id: two calls of the same tool at once each get their own request.
    const call = req.callId !== undefined && this.open.has(req.callId) ? req.callId : undefined;
    await this.sending;
    const answer = await askEditor(
      {
        client: this.opts.client,
        sessionId: this.id,
        capabilities: this.opts.capabilities,
        cwd: this.hosted.config.cwd,
        ...(call ? { toolCallId: call } : {}),
      },
      req,
    );
    this.hosted.answer(req.id, answer.decision, answer.reason);
  }

  private chunk(kind: "agent_message_chunk" | "agent_thought_chunk", text: string): void {
    if (text) this.update({ sessionUpdate: kind, content: { type: "text", text } });
  }

  private notice(severity: "warning" | "error", text: string): void {
    if (this.opts.capabilities.session?.notices != null) {
      this.update({ sessionUpdate: "notice", severity, title: text });
    } else if (severity === "error") {
      this.chunk("agent_message_chunk", `\n⚠ ${text}\n`);
    }
  }

  private update(update: acp.SessionUpdate): void {
    const params = { sessionId: this.id, update };
    this.sending = this.sending
      .then(() => this.opts.client.notify(acp.methods.client.session.update, params))
      .catch(() => {});
  }
}
