import { original, produce } from "immer";
import { showSessionDiff } from "./session-tools.js";
import { applyRewound } from "./rewind.js";
import { themeForBackground } from "../../render/theme.js";
import { chooseTheme } from "./theme.js";
import { assertNever } from "../../protocol/assert-never.js";
import { lastUsage, tokensOf } from "../../protocol/usage.js";
import type { Model } from "../model.js";
import { screenSize, transcriptFromStart } from "./init.js";
import type { Cmd, Key, Msg } from "../msg.js";
import { applyAgentEvent } from "./agent.js";
import { applyEditedInput, applyKey, applyPaste, applyWheel } from "./input.js";
import { sendQueued, submitLine } from "./submit.js";
import { addEntry } from "./transcript.js";
import { startReview } from "./slash.js";
import { requestStatusLine, statusLineFailed, statusLineText } from "./status-line.js";
import { keepAnchorValid } from "./scroll.js";
import { completePendingTab, setSkillCommands, setSourceCommands, syncMenu } from "./menu.js";
import { mergeHistory } from "./history.js";
import { finishShell } from "./shell.js";
import { lastTodos } from "./todos.js";
import { startRun } from "./run.js";
import { plain } from "./plain.js";
import { applyMcpConfig, expandMentions } from "./mcp.js";
import { chooseModel, openPicker } from "./dialog.js";
import { applyOfferDone, applyOfferProgress } from "./engine-offer.js";
import { checkIdle, touchIdle } from "./idle.js";

/** DEC private mode 2026, synchronized output (the terminal holds a frame until it is complete). */
export const SYNC_OUTPUT_MODE = 2026;

export { init } from "./init.js";

/** Shows a conversation from its start: a fresh welcome, then the transcript rebuilt from it. */
function openConversation(
  m: Model,
  sessionId: string,
  conversation: Model["conversation"],
  tokensUsed: number | undefined,
): void {
  m.sessionId = sessionId;
  // A launch's resume opens the conversation its boot frame shows already: that transcript
  // (nothing adds entries before the boot ends: lines typed meanwhile wait in the queue).
  const before = m.booted ? undefined : original(m);
  // A copy: the Msg's array is not a draft, and pushing a prompt onto it would change the Msg.
  m.conversation = [...conversation];
  transcriptFromStart(m, before);
  m.anchor = null;
  m.usage = {
    ...lastUsage(conversation),
    totalTokens: tokensUsed ?? conversation.reduce((sum, message) => sum + tokensOf(message), 0),
  };
  m.todos = lastTodos(m.conversation);
}

function applyKeyMsg(m: Model, key: Key, cmds: Cmd[]): void {
  const hadMenu = m.menu !== null;
  applyKey(m, key, cmds);
  // Up/Down that walked the history: a recalled `/command` does not open the menu (else
  // the next Up would move in the menu instead of going on through the history).
  if (!hadMenu && (key.name === "up" || key.name === "down")) m.menuClosedFor = m.input.text;
  syncMenu(m, cmds);
}

/** update(model, msg) -> [model', cmds]: pure; no I/O, no clock, no randomness. */
export function update(model: Model, msg: Msg): [Model, Cmd[]] {
  const cmds: Cmd[] = [];
  const next = produce(model, (m) => {
    switch (msg.type) {
      case "key":
        touchIdle(m);
        applyKeyMsg(m, msg.key, cmds);
        break;
      case "paste":
        touchIdle(m);
        applyPaste(m, msg.text);
        syncMenu(m, cmds);
        break;
      case "wheel":
        // Arrows that arrived in one read (a slow link, key repeat under load, or the terminal's
        // alternate-scroll wheel) go where the focus is: a menu or dialog moves once per arrow.
        if (msg.lines !== undefined && (m.dialog || m.menu || m.historySearch))
          for (let i = 0; i < msg.lines; i++) applyKeyMsg(m, { name: msg.direction }, cmds);
        else applyWheel(m, msg.direction, msg.lines);
        break;
      case "resize":
        Object.assign(m, screenSize(msg.width, msg.height));
        break;
      case "tick":
        m.now = msg.now;
        break;
      case "exit-disarm":
        // A later arm has its own timer: this one ends only the arm it was set for.
        if (m.exitArm.seq === msg.seq) m.exitArm.armed = false;
        break;
      case "idle-check":
        checkIdle(m, msg.seq, cmds);
        break;
      case "agent":
        applyAgentEvent(m, msg.event, cmds);
        // A run that ended sends the line queued behind it.
        sendQueued(m, cmds);
        break;
      case "picker-items":
        openPicker(m, msg.purpose, msg.items);
        break;
      case "offer-progress":
        applyOfferProgress(m, msg.line);
        break;
      case "offer-done": {
        const use = applyOfferDone(m, msg.ok, msg.message);
        if (use) chooseModel(m, use, cmds);
        break;
      }
      case "session-opened":
        if (msg.model) m.config.model = msg.model;
        openConversation(m, msg.sessionId, msg.conversation, msg.tokensUsed);
        break;
      case "notice":
        if (msg.level === "error") addEntry(m, { kind: "error", message: msg.text });
        else addEntry(m, { kind: "notice", level: msg.level, text: msg.text });
        break;
      case "session-diff":
        showSessionDiff(m, msg.diffs);
        break;
      case "review-diff":
        startReview(m, msg, cmds);
        break;
      case "rewound":
        applyRewound(m, msg);
        break;
      case "save-state":
        m.unsaved = !msg.saved;
        if (msg.saved) addEntry(m, { kind: "notice", level: "info", text: msg.text });
        else addEntry(m, { kind: "error", message: msg.text });
        break;
      case "markdown-ready":
        break;
      case "commands":
        setSourceCommands(m, msg.source, msg.items);
        break;
      case "mention-items":
        m.mentionItems = [
          ...m.mentionItems.filter((i) => i.source !== msg.source),
          ...msg.items.map((i) => ({ ...i, source: msg.source })),
        ];
        break;
      case "files-matched":
        m.files = msg.matches;
        completePendingTab(m);
        break;
      case "mentions-read": {
        m.attaching = null;
        for (const text of msg.problems) addEntry(m, { kind: "notice", level: "warn", text });
        for (const text of msg.notes ?? []) addEntry(m, { kind: "notice", level: "info", text });
        const n = msg.attached.length;
        const images = msg.images ?? [];
        // Known not to see: the user chooses. Not known yet: the worker asks the server first, and
        // refuses the run with the same words when the model does not see (agent/model-info.ts).
        if (images.length && m.config.seesImages === false) {
          // Never a silent drop: the message waits in the input while the user picks a model that sees.
          addEntry(m, {
            kind: "notice",
            level: "warn",
            text: `${m.config.model || "This model"} cannot see images, so the ${images.length === 1 ? "image" : `${images.length} images`} would not reach it. Not sent: choose a vision model with /model (the list marks "vision"), then press Enter again — or remove the image from the message.`,
          });
          m.input = { text: msg.text, cursor: msg.text.length };
          break;
        }
        // Resources named as @server:uri are read by the worker, which then starts the run.
        if (expandMentions(m, msg.text, cmds, msg.content, images)) break;
        startRun(
          m,
          {
            content: msg.content,
            typed: msg.text,
            note: n ? `attached ${n} ${n === 1 ? "file" : "files"}` : undefined,
            ...(images.length ? { images } : {}),
          },
          cmds,
        );
        break;
      }
      case "dir-added": {
        const dirs = m.config.addDirs ?? [];
        if (!dirs.includes(msg.dir)) m.config.addDirs = [...dirs, msg.dir];
        addEntry(m, {
          kind: "notice",
          level: "info",
          text: `Added ${msg.dir}: the tools may use it by the project's rules from the next message on.`,
        });
        break;
      }
      case "status-line-text":
        statusLineText(m, msg.text);
        break;
      case "status-line-failed":
        statusLineFailed(m, msg.error);
        break;
      case "input-edited":
        applyEditedInput(m, msg.text);
        break;
      case "shell-done":
        finishShell(m, msg.command, msg.output, msg.exitCode, cmds);
        // A prompt typed while the command ran goes now, with the output before it.
        sendQueued(m, cmds);
        break;
      case "terminal-mode":
        if (msg.mode === SYNC_OUTPUT_MODE) m.syncOutput = msg.state >= 1 && msg.state <= 3;
        break;
      case "keyboard-protocol":
        // Any answer means the terminal knows the protocol: its keys come told apart from now on.
        m.terminal.keyboard = "kitty";
        break;
      case "terminal-background":
        chooseTheme(m, themeForBackground(msg.rgb), "terminal");
        break;
      case "focus":
        m.focused = msg.focused;
        break;
      case "mcp-config":
        for (const text of msg.warnings) addEntry(m, { kind: "notice", level: "warn", text });
        if (msg.skills) {
          m.skills = msg.skills;
          setSkillCommands(m, msg.skills);
        }
        applyMcpConfig(m, msg.mcp, cmds);
        break;
      case "boot-ready": {
        const mode = m.config.permissionMode;
        m.config = m.modeChosen ? { ...msg.config, permissionMode: mode } : msg.config;
        m.skills = msg.skills;
        if (msg.promptParts) m.promptParts = msg.promptParts;
        setSkillCommands(m, msg.skills);
        if (msg.history) mergeHistory(m, msg.history);
        if (msg.notify) m.notify = msg.notify;
        if (msg.steer === false) m.steerOnEnter = false;
        if (msg.idleNotifyMs) m.idle.ms = msg.idleNotifyMs;
        if (msg.config.permissionMode === "yolo") m.yoloInCycle = true;
        if (msg.toolOutputLines) m.toolOutputLines = msg.toolOutputLines;
        if (msg.terminal) m.terminal = { ...m.terminal, ...msg.terminal };
        if (msg.backgroundHint) chooseTheme(m, msg.backgroundHint, "environment");
        if (msg.theme) chooseTheme(m, msg.theme, "config");
        openConversation(m, msg.sessionId, msg.conversation, msg.tokensUsed);
        for (const text of msg.warnings) addEntry(m, { kind: "notice", level: "warn", text });
        m.booted = true;
        // Resolve the model and its context length, and load it, while the user types.
        cmds.push({ type: "worker", command: { type: "probe", config: plain(m.config) } });
        // The servers start in the worker now, after the first frame, and never delay it.
        if (msg.mcp) applyMcpConfig(m, msg.mcp, cmds);
        // Lines sent before boot waited in the queue (a skill needs the skills loaded).
        for (const text of m.queued.splice(0)) submitLine(m, text, cmds);
        break;
      }
      default:
        assertNever(msg);
    }
    // The transcript can change under a scrolled-up view (an entry removed, thinking folded, a
    // resize re-wrapping the anchored entry): the anchor stays on a line that exists.
    keepAnchorValid(m);
    requestStatusLine(m, cmds);
  });
  return [next, cmds];
}
