// One agent0 session served to another program (an ACP editor, an MCP client): its settings, its
// conversation, its saved file and its agent. The protocol adapters (cli/acp/, cli/mcp-serve.ts)
// turn their requests into prompts, answers and cancels here, and the session's events into
// their own messages. The agent is the same one the TUI and `-p` run (agent/serve.ts).
import { turnMessages } from "../protocol/mode-notes.js";
import type { AgentEvent, DoneReason, RunEvent } from "../protocol/agent-event.js";
import type { ConversationMessage, ImageAttachment } from "../protocol/conversation.js";
import type { McpExpandRequest, McpServerView } from "../protocol/mcp-state.js";
import type {
  PermissionDecision,
  PermissionMode,
  ProviderName,
  RunConfig,
  ThinkLevel,
} from "../protocol/run-config.js";
import type { AgentLink, WorkerCommand } from "../protocol/worker-command.js";
import type { Logger } from "../session/log.js";
import { SessionRecorder } from "../session/recorder.js";
import { keepSessionFacts, newModel } from "../protocol/session-facts.js";
import { resumeInto } from "./resume-into.js";
import { undoLastTurn, type UndoOutcome } from "./undo.js";

/** Opens the agent of one session: commands in, events out through the callback it was opened with. */
export type OpenAgent = (onEvent: (e: AgentEvent) => void) => AgentLink;

/** What a prompt ended with: the done reason, the last answer, and the error the run reported. */
export interface PromptOutcome {
  reason: DoneReason;
  answer: string;
  error?: string;
}

export type Permission = Extract<RunEvent, { type: "permission-request" }>;

export interface HostedSessionOptions {
  config: RunConfig;
  dir: string;
  logger: Logger;
  openAgent: OpenAgent;
  /** Events of no run (notices, MCP servers starting). */
  onIdleEvent?: (e: AgentEvent) => void;
  /** Told when the session file cannot be written (and when it can again). */
  onSaveState?: (text: string) => void;
  /** The session's file, when the driver opened it already (`-p --resume`): the session takes it over. */
  recorder?: SessionRecorder;
  /** The conversation so far (a resumed session's). */
  conversation?: ConversationMessage[];
}

export class HostedSession {
  readonly config: RunConfig;
  conversation: ConversationMessage[] = [];
  private readonly recorder: SessionRecorder;
  private readonly agent: AgentLink;
  private runSeq = 0;
  private current:
    | {
        runId: number;
        onEvent: (e: AgentEvent) => void;
        finish: (o: PromptOutcome) => void;
        answer: string;
        error?: string;
      }
    | undefined;
  /** The MCP servers as the agent last reported them (their prompts are slash commands). */
  mcpServers: McpServerView[] = [];
  private readonly expanding = new Map<
    string,
    (r: { ok: true; content: string; images?: ImageAttachment[] } | { ok: false; error: string }) => void
  >();
  /** Permission requests not answered yet, by id. */
  private readonly asking = new Map<string, Permission>();

  constructor(private readonly opts: HostedSessionOptions) {
    this.config = { ...opts.config, allowedTools: [...opts.config.allowedTools] };
    this.recorder =
      opts.recorder ??
      new SessionRecorder({
        dir: opts.dir,
        fields: () => this.config,
        onSaveState: (state) => opts.onSaveState?.(state.text),
      });
    if (opts.conversation) this.conversation = [...opts.conversation];
    this.agent = opts.openAgent((e) => this.receive(e));
    const servers = this.config.mcpServers ?? {};
    if (Object.keys(servers).length) this.agent.send({ type: "mcp-sync", servers, cwd: this.config.cwd });
    // The server is asked about the model while the user writes the first prompt.
    this.agent.send({ type: "prefetch-model-info", config: this.config });
  }

  get id(): string {
    return this.recorder.id;
  }

  /** Whether the session has a file (a prompt was saved). */
  get saved(): boolean {
    return this.recorder.started;
  }

  get running(): boolean {
    return this.current !== undefined;
  }

  /** Opens a saved session into this one (before its first prompt); an error says why it cannot. */
  load(idOrPrefix: string): { ok: true; notices: string[] } | { ok: false; error: string } {
    const opened = resumeInto(this.recorder, this.opts.dir, idOrPrefix);
    if (!opened.ok) return opened;
    this.conversation = [...opened.conversation];
    if (opened.model) this.config.model = opened.model;
    return { ok: true, notices: opened.notices };
  }

  /**
   * Runs one user turn; `onEvent` sees the run's events. Refused while another turn runs. `last`:
   * the process ends with this turn (the agent skips the collection it would make when idle).
   */
  prompt(user: ConversationMessage, onEvent: (e: AgentEvent) => void, last = false): Promise<PromptOutcome> {
    return this.start(onEvent, (runId) => {
      const turn = turnMessages(this.conversation, this.config.permissionMode, user);
      for (const m of turn) this.recorder.append(m);
      this.conversation.push(...turn);
      return this.runCommand(runId, last);
    });
  }

  /** Runs the conversation as it stands again: its last turn got no answer (no server was there). */
  retry(onEvent: (e: AgentEvent) => void, last = false): Promise<PromptOutcome> {
    return this.start(onEvent, (runId) => this.runCommand(runId, last));
  }

  private runCommand(runId: number, last: boolean): WorkerCommand {
    // Stamped as every driver stamps a run: hooks get the session's real file as transcript_path.
    Object.assign(this.config, this.recorder.runStamp());
    const config = { ...this.config };
    return { type: "run", runId, conversation: [...this.conversation], config, ...(last ? { last } : {}) };
  }

  /** Summarizes older messages to free context (/compact). */
  compact(onEvent: (e: AgentEvent) => void): Promise<PromptOutcome> {
    return this.start(onEvent, (runId) => ({
      type: "compact",
      runId,
      conversation: [...this.conversation],
      config: { ...this.config, ...this.recorder.runStamp() },
    }));
  }

  /** Restores the files of the last turn and cuts the conversation back to before it (/undo). */
  async undo(force: boolean): Promise<UndoOutcome> {
    if (this.current) return { ok: false, text: "Wait for the current answer to end first." };
    const outcome = await undoLastTurn(this.recorder, this.config.cwd, this.conversation, force);
    if (outcome.ok) this.conversation = [...outcome.conversation];
    return outcome;
  }

  /** A user turn from a server prompt (and @server:uri resources), rendered by the agent. */
  expandMcp(
    request: McpExpandRequest,
  ): Promise<{ ok: true; content: string; images?: ImageAttachment[] } | { ok: false; error: string }> {
    return new Promise((resolve) => {
      this.expanding.set(request.typed, resolve);
      this.agent.send({ type: "mcp-expand", request });
    });
  }

  private start(onEvent: (e: AgentEvent) => void, command: (runId: number) => WorkerCommand): Promise<PromptOutcome> {
    if (this.current) return Promise.reject(new Error("a prompt is already running in this session"));
    const runId = ++this.runSeq;
    return new Promise<PromptOutcome>((finish) => {
      this.current = { runId, onEvent, finish, answer: "" };
      this.agent.send(command(runId));
    });
  }

  /** Stops the running turn as Esc does: the stream is abandoned, tools are killed, the partial answer kept. */
  cancel(): void {
    if (this.current) this.agent.send({ type: "cancel", runId: this.current.runId });
  }

  answer(id: string, decision: PermissionDecision, reason?: string): void {
    const req = this.asking.get(id);
    if (!req) return;
    this.asking.delete(id);
    if (!this.current) return;
    this.agent.send({
      type: "permission-reply",
      runId: this.current.runId,
      id,
      decision,
      ...(reason ? { reason } : {}),
    });
  }

  /** The model and thinking from the next prompt on (an editor's config options); a new model is looked up at once. */
  configure(change: { model: string; provider?: ProviderName } | { think: ThinkLevel | undefined }): void {
    if ("model" in change) {
      // Another provider (`-p --yes` moving to the engine): nothing the old one said holds.
      if (change.provider) newModel(this.config, change.model, change.provider);
      else this.config.model = change.model;
      this.recorder.meta({ model: change.model });
      this.agent.send({ type: "prefetch-model-info", config: this.config });
    } else if (change.think === undefined) delete this.config.think;
    else this.config.think = change.think;
  }

  setMode(mode: PermissionMode): void {
    this.config.permissionMode = mode;
    if (this.current) this.agent.send({ type: "set-mode", runId: this.current.runId, mode });
    this.recorder.meta({ permissionMode: mode });
  }

  /**
   * Stops the agent (its MCP servers too) and closes the session file; returns what could not be
   * saved. `exiting`: the process ends next, so the agent is stopped only when it holds what must
   * be stopped first (MCP servers, a SessionEnd hook); its commands are ended at exit.
   */
  async close(exiting = false): Promise<string | undefined> {
    this.cancel();
    const servers = Object.keys(this.config.mcpServers ?? {}).length > 0;
    if (!exiting || servers || this.config.hooks?.SessionEnd?.length) await this.agent.close().catch(() => {});
    const report = this.recorder.close();
    return report.kind === "unsaved" ? report.text : undefined;
  }

  private receive(e: AgentEvent): void {
    const run = this.current;
    if (e.type !== "text" && e.type !== "thinking") this.opts.logger.event(e);
    // The facts later runs carry (model, window, protocol, "always"): the rule every driver keeps.
    keepSessionFacts(this.config, e);
    if (e.type === "mcp-state") this.mcpServers = e.servers;
    if (e.type === "mcp-expanded" || e.type === "mcp-expand-failed") {
      const resolve = this.expanding.get(e.typed);
      this.expanding.delete(e.typed);
      resolve?.(
        e.type === "mcp-expanded"
          ? { ok: true, content: e.content, ...(e.images ? { images: e.images } : {}) }
          : { ok: false, error: e.error },
      );
    }
    if (e.runId === null || !run || e.runId !== run.runId) {
      this.opts.onIdleEvent?.(e);
      return;
    }
    this.recorder.event(e);
    switch (e.type) {
      case "message":
        this.conversation.push(e.message);
        if (e.message.role === "assistant" && e.message.content.trim() && !e.message.toolCalls?.length)
          run.answer = e.message.content;
        break;
      case "compacted":
        this.conversation = [...e.conversation];
        break;
      case "permission-request":
        this.asking.set(e.id, e);
        break;
      case "error":
        run.error = e.hint ? `${e.message}\n${e.hint}` : e.message;
        break;
      default:
        break;
    }
    run.onEvent(e);
    if (e.type === "done") {
      this.current = undefined;
      this.asking.clear();
      run.finish({ reason: e.reason, answer: run.answer, ...(run.error ? { error: run.error } : {}) });
    }
  }
}
