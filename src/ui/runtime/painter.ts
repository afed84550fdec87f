import type blessed from "blessed";
import { blessedParts } from "./terminal.js";
import type { Frame } from "../view/index.js";
import { SYNC_BEGIN, SYNC_END } from "./restore.js";

interface Widgets {
  transcript: blessed.Widgets.BoxElement;
  status: blessed.Widgets.BoxElement;
  rule: blessed.Widgets.BoxElement;
  input: blessed.Widgets.BoxElement;
  dialog: blessed.Widgets.BoxElement;
}

/**
 * Commits Frames to a blessed screen: the one place that touches widgets. blessed diffs cells
 * itself; we only avoid setContent() with unchanged text (it re-parses and marks lines dirty).
 */
export function createPainter(
  screen: blessed.Widgets.Screen,
): (frame: Frame, size: { width: number; height: number }) => void {
  const w = createWidgets(screen);
  const lastContent = new Map<blessed.Widgets.BoxElement, string>();
  const setContent = (box: blessed.Widgets.BoxElement, text: string) => {
    if (lastContent.get(box) === text) return;
    lastContent.set(box, text);
    box.setContent(text);
  };
  return (frame, { height: rows }) => {
    // The terminal shows nothing of the frame until the end mark: never half a frame, also on resize.
    if (frame.sync) screen.program.write(SYNC_BEGIN);
    const inputTop = rows - frame.input.length;
    const dialogRows = frame.dialog?.height ?? 0;
    // A dialog sits between the transcript and the status line: it hides neither the end of the
    // answer nor the status line.
    const transcriptRows = Math.max(1, inputTop - 2 - dialogRows);
    place(w.transcript, 0, transcriptRows);
    place(w.status, inputTop - 2, 1);
    place(w.rule, inputTop - 1, 1);
    place(w.input, inputTop, frame.input.length);
    setContent(w.transcript, padTop(frame.transcript, transcriptRows));
    setContent(w.status, frame.status);
    setContent(w.rule, frame.rule);
    setContent(w.input, frame.input.join("\n"));
    if (frame.dialog) {
      const d = frame.dialog;
      w.dialog.width = d.width;
      w.dialog.height = d.height;
      w.dialog.top = Math.max(0, inputTop - 2 - d.height);
      w.dialog.left = 0;
      w.dialog.setLabel(d.title);
      setContent(w.dialog, d.lines.join("\n"));
      w.dialog.show();
    } else {
      w.dialog.hide();
    }
    screen.render();
    if (frame.dialog) {
      screen.program.hideCursor();
    } else {
      screen.program.cup(frame.cursor.row, frame.cursor.col);
      screen.program.showCursor();
    }
    if (frame.sync) screen.program.write(SYNC_END);
  };
}

function createWidgets(screen: blessed.Widgets.Screen): Widgets {
  const box = (opts: blessed.Widgets.BoxOptions) =>
    blessedParts.box({
      parent: screen,
      left: 0,
      width: "100%",
      tags: false,
      wrap: false,
      ...opts,
    } as blessed.Widgets.BoxOptions);
  return {
    transcript: box({ top: 0, height: 1 }),
    status: box({ top: 0, height: 1 }),
    rule: box({ top: 0, height: 1 }),
    input: box({ top: 0, height: 1 }),
    dialog: blessedParts.box({
      parent: screen,
      hidden: true,
      border: { type: "line" },
      style: { border: { fg: "yellow" } },
      tags: false,
      wrap: false,
    } as blessed.Widgets.BoxOptions),
  };
}

function place(box: blessed.Widgets.BoxElement, top: number, height: number) {
  if (box.top !== top) box.top = top;
  if (box.height !== height) box.height = height;
}

/** The transcript is bottom-aligned: a short one sits just above the input. */
function padTop(lines: string[], height: number): string {
  return "\n".repeat(Math.max(0, height - lines.length)) + lines.join("\n");
}
