// /rewind (and Esc twice on an empty input): back to before an earlier user message. The user picks
// the message (newest first, with its time and the files its turn changed), then what comes back —
// code and conversation, conversation only, code only — and the message returns to the input.
// Files changed outside agent0 since are overwritten only after a second question.
import type { ConversationMessage } from "../../protocol/conversation.js";
import type { Model, PickerItem, RewindRequest, RewindRestore } from "../model.js";
import type { Cmd, Msg } from "../msg.js";
import { sanitizeLine } from "../../render/sanitize.js";
import { addEntry } from "./transcript.js";
import { plain } from "./plain.js";

const RESTORES: { restore: RewindRestore; label: string }[] = [
  { restore: "both", label: "Restore code and conversation" },
  { restore: "conversation", label: "Restore conversation only (files stay as they are)" },
  { restore: "code", label: "Restore code only (the conversation stays)" },
];

/** "14:05" from a message's send time (local time, as a clock on the wall shows it). */
function timeOf(ms: number | undefined): string {
  if (ms === undefined) return "--:--";
  const d = new Date(ms);
  return `${String(d.getHours()).padStart(2, "0")}:${String(d.getMinutes()).padStart(2, "0")}`;
}

/** The files the turn starting at `turn` changed, from its tools' diffs, and whether it ran a shell. */
function turnChanges(conversation: ConversationMessage[], turn: number): string {
  const files = new Set<string>();
  let shell = false;
  for (let i = turn + 1; i < conversation.length && conversation[i]!.role !== "user"; i++) {
    const m = conversation[i]!;
    if (m.role === "tool" && m.display?.path && m.display.diff) files.add(m.display.path);
    if (m.role === "tool" && m.toolName === "run_shell_command") shell = true;
  }
  const changed = files.size ? `changed ${[...files].join(", ")}` : "no file changes";
  return shell ? `${changed} · ran shell commands` : changed;
}

/** What the user typed for the message at `index` (a skill's expansion comes back as typed). */
function typedAt(conversation: ConversationMessage[], index: number): string {
  const m = conversation[index]!;
  return m.typed ?? m.content;
}

/** Opens the list of the session's user messages, newest first. */
export function openRewind(model: Model): void {
  if (model.run) {
    addEntry(model, {
      kind: "notice",
      level: "warn",
      text: "Wait for the current answer to end (or press Esc) first.",
    });
    return;
  }
  const items: PickerItem[] = [];
  model.conversation.forEach((m, i) => {
    if (m.role !== "user") return;
    const first = sanitizeLine(typedAt(model.conversation, i).split("\n")[0] ?? "");
    items.unshift({
      value: String(i),
      label: `${timeOf(m.sentAt)}  ${first.length > 70 ? `${first.slice(0, 69)}…` : first}`,
      detail: turnChanges(model.conversation, i),
    });
  });
  if (items.length === 0) {
    addEntry(model, { kind: "notice", level: "info", text: "Nothing to rewind to yet: no message was sent." });
    return;
  }
  model.dialog = {
    kind: "picker",
    purpose: "rewind",
    title: "Rewind to before which message? (Enter · Esc: close)",
    items,
    selected: 0,
  };
}

const encode = (r: RewindRequest) => JSON.stringify(r);
const decode = (value: string) => JSON.parse(value) as RewindRequest;

/** Enter in one of the rewind pickers. */
export function chooseRewind(
  model: Model,
  purpose: "rewind" | "rewind-restore" | "rewind-force",
  value: string,
  cmds: Cmd[],
): void {
  if (purpose === "rewind") {
    const turn = Number(value);
    const typed = typedAt(model.conversation, turn);
    model.dialog = {
      kind: "picker",
      purpose: "rewind-restore",
      title: `Rewind to before "${sanitizeLine(typed.split("\n")[0] ?? "").slice(0, 60)}" (Enter · Esc: close)`,
      items: RESTORES.map((r) => ({ value: encode({ turn, restore: r.restore, typed }), label: r.label })),
      selected: 0,
    };
    return;
  }
  if (value === "") return; // "keep my changes"
  requestRewind(model, decode(value), purpose === "rewind-force", cmds);
}

function requestRewind(model: Model, request: RewindRequest, force: boolean, cmds: Cmd[]): void {
  cmds.push({
    type: "rewind",
    request,
    force,
    sessionId: model.sessionId,
    conversation: plain(model.conversation),
    tokensUsed: model.usage.totalTokens,
  });
}

/** The rewind is done (the conversation came first, as session-opened), or waits for an answer. */
export function applyRewound(model: Model, msg: Extract<Msg, { type: "rewound" }>): void {
  if (msg.conflicts?.length) {
    model.dialog = {
      kind: "picker",
      purpose: "rewind-force",
      title: `Changed outside agent0 since then: ${msg.conflicts.map(sanitizeLine).join(", ")}. Overwrite? (Enter · Esc)`,
      items: [
        { value: "", label: "No, keep those files as they are" },
        { value: encode(msg.request), label: "Yes, overwrite them with the versions from before that message" },
      ],
      selected: 0,
    };
    return;
  }
  addEntry(model, { kind: "notice", level: msg.ok ? "info" : "warn", text: msg.text });
  if (msg.ok && msg.request.restore !== "code")
    model.input = { text: msg.request.typed, cursor: msg.request.typed.length };
}
