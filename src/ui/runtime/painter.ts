import type blessed from "blessed";
import { blessedParts, redrawInPlace, type Terminal } from "./terminal.js";
import type { Frame } from "../view/index.js";
import { SYNC_BEGIN, SYNC_END } from "./restore.js";
import { hyperlink, takeLinks, type LinkSpan } from "../layout/links.js";
import { themeSgr } from "../../render/theme.js";

interface Widgets {
  transcript: blessed.Widgets.BoxElement;
  status: blessed.Widgets.BoxElement;
  rule: blessed.Widgets.BoxElement;
  input: blessed.Widgets.BoxElement;
  dialog: blessed.Widgets.BoxElement;
}

/** A link written over its cells, and the row it is on. */
type PlacedLink = LinkSpan & { row: number };

/**
 * Commits Frames to a blessed screen: the one place that touches widgets. blessed diffs cells
 * itself; we only avoid setContent() with unchanged text (it re-parses and marks lines dirty).
 * The terminal's modes a Frame names (keyboard protocol, progress, theme) are set through `term`.
 */
export function createPainter(term: Terminal): (frame: Frame, size: { width: number; height: number }) => void {
  const screen = term.screen;
  const w = createWidgets(screen);
  let theme: Frame["theme"];
  // Links written after the last frame, and the cell buffer they were written over: blessed
  // writes a changed cell without its link, and a new buffer (resize, resume) means all of them.
  let written = new Map<string, PlacedLink>();
  let cells: unknown = null;
  const lastContent = new Map<blessed.Widgets.BoxElement, string>();
  const setContent = (box: blessed.Widgets.BoxElement, text: string) => {
    if (lastContent.get(box) === text) return;
    lastContent.set(box, text);
    box.setContent(text);
  };
  return (frame, { height: rows }) => {
    // The terminal shows nothing of the frame until the end mark: never half a frame, also on resize.
    if (frame.sync) screen.program.write(SYNC_BEGIN);
    term.setKeyboard(frame.keyboard === "kitty");
    term.setProgress(frame.progress ?? "none");
    if (frame.theme !== theme) {
      theme = frame.theme;
      term.setTheme(theme ?? "dark");
      // Every cell is drawn again in the new colours (the content is the same text).
      redrawInPlace(screen);
      written = new Map();
    }
    const inputTop = rows - frame.input.length;
    const dialogRows = frame.dialog?.height ?? 0;
    // A dialog sits between the transcript and the status line: it hides neither the end of the
    // answer nor the status line.
    const transcriptRows = Math.max(1, inputTop - 2 - dialogRows);
    place(w.transcript, 0, transcriptRows);
    place(w.status, inputTop - 2, 1);
    place(w.rule, inputTop - 1, 1);
    place(w.input, inputTop, frame.input.length);
    const { lines, links } = placeLinks(frame.transcript, transcriptRows);
    setContent(w.transcript, padTop(lines, transcriptRows));
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
    const olines = (screen as unknown as { olines: unknown }).olines;
    if (olines !== cells) written = new Map();
    cells = olines;
    const next = new Map<string, PlacedLink>();
    let out = "";
    for (const link of links) {
      const key = `${link.row}:${link.col}:${link.url}:${link.text}`;
      next.set(key, link);
      if (written.has(key)) continue;
      // The same characters in the same colours over the same cells, now carrying the link.
      const text = themeSgr(link.text, theme ?? "dark");
      out += `\x1b[${link.row + 1};${link.col + 1}H\x1b[0m${hyperlink(link.url, text)}\x1b[0m`;
    }
    written = next;
    if (out) screen.program.write(out);
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

/** The transcript's lines without their links, and each link's row on screen (bottom-aligned as padTop). */
function placeLinks(transcript: string[], rows: number): { lines: string[]; links: PlacedLink[] } {
  const top = Math.max(0, rows - transcript.length);
  const links: PlacedLink[] = [];
  const lines = transcript.map((line, i) => {
    const { plain, spans } = takeLinks(line);
    if (top + i < rows) for (const span of spans) links.push({ ...span, row: top + i });
    return plain;
  });
  return { lines, links };
}

function place(box: blessed.Widgets.BoxElement, top: number, height: number) {
  if (box.top !== top) box.top = top;
  if (box.height !== height) box.height = height;
}

/** The transcript is bottom-aligned: a short one sits just above the input. */
function padTop(lines: string[], height: number): string {
  return "\n".repeat(Math.max(0, height - lines.length)) + lines.join("\n");
}
