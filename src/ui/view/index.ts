import type { Model } from "../model.js";
import { dialogRoom, inputRows, transcriptHeight } from "../layout/screen.js";
import { inputView } from "./input.js";
import { linesBelow, visibleTranscript } from "../layout/transcript.js";
import { dialogView } from "./dialog.js";
import type { DialogBox } from "../layout/dialog-box.js";
import { menuLines } from "./menu.js";
import { pinnedLines } from "../layout/pinned.js";
import { modeRule } from "./modes.js";
import { fitStatus, statusSegments } from "./status.js";
import { searchInputView } from "./history.js";
import { linkify } from "../layout/links.js";
import type { ColourTheme } from "../../render/theme.js";

/** Everything painted, as plain strings: runtime.ts is the only code that touches blessed. */
export interface Frame {
  transcript: string[];
  status: string;
  rule: string;
  input: string[];
  cursor: { row: number; col: number };
  /** Drawn across the width just above the status line; the transcript is that much shorter. */
  dialog?: DialogBox;
  /** Bracket the frame in synchronized output (the terminal said it knows mode 2026). */
  sync?: true;
  /** The kitty keyboard protocol is on (the terminal answered its query). */
  keyboard?: "kitty";
  /** OSC 9;4 progress to show in the terminal's tab or taskbar (where it shows it). */
  progress?: "busy" | "error";
  /** The colour theme, when not the dark one the styles are written for. */
  theme?: Exclude<ColourTheme, "dark">;
}

/** view(model) -> Frame: pure; only the visible lines are produced. */
export function view(model: Model): Frame {
  const width = model.width;
  const dialog = model.dialog ? dialogView(model.dialog, width, dialogRoom(model)) : undefined;
  const tHeight = Math.max(1, transcriptHeight(model) - (dialog?.height ?? 0));
  const pinned = pinnedLines(model, width);
  const visible = visibleTranscript(model, width, tHeight);
  const base = { cwd: model.config.cwd, host: model.terminal.host };
  // File paths and URLs as OSC 8 links, where the terminal shows them (the painter places them).
  const linked = model.terminal.hyperlinks ? visible.map((line) => linkify(line, base)) : visible;
  const transcript = [...linked, ...pinned];
  const { lines, cursor } = model.historySearch ? searchInputView(model, width) : inputView(model, inputRows(model));
  const frame: Frame = {
    transcript,
    status: statusLine(model, width, tHeight),
    rule: modeRule(model, width),
    input: [...lines, ...menuLines(model, width)],
    cursor: { row: tHeight + pinned.length + (dialog?.height ?? 0) + 2 + cursor.row, col: cursor.col },
  };
  if (dialog) frame.dialog = dialog;
  if (model.syncOutput) frame.sync = true;
  if (model.terminal.keyboard === "kitty") frame.keyboard = "kitty";
  if (model.terminal.progress && (model.run || model.runFailed)) frame.progress = model.run ? "busy" : "error";
  // Until the config is read the colours stay the boot screen's: a terminal's answer that comes
  // first would paint a theme the config then overrules, and the screen would change twice.
  if (model.booted && model.theme.name !== "dark") frame.theme = model.theme.name;
  return frame;
}

function statusLine(model: Model, width: number, tHeight: number): string {
  return fitStatus(
    statusSegments(model, () => linesBelow(model, width, tHeight)),
    width,
  );
}
