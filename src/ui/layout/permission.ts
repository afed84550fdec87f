// The permission dialog's layout, shared by the view (what is painted) and update (how far the
// body scrolls, and whether the user has seen all of it): one function, so the two never disagree.
import { renderDiff } from "../../render/diff.js";
import { revealInvisible, sanitize, sanitizeLine } from "../../render/sanitize.js";
import { theme } from "../../render/theme.js";
import { logicalLines, wrapText } from "../../render/wrap.js";
import type { PermissionDialog } from "../model.js";
import { boxLine, type DialogBox } from "./dialog-box.js";

export interface PermissionLayout {
  title: string;
  /** Every line of what is being approved, wrapped to the dialog's width. */
  body: string[];
  /** How many body lines fit at once. */
  viewport: number;
  /** The largest scroll offset (0 when everything fits). */
  maxScroll: number;
  width: number;
  inner: number;
  /** Said above the body when it holds characters that show as nothing (now shown as marks). */
  warning?: string;
}

const INVISIBLE_WARNING =
  "⚠ Holds invisible or direction-changing characters (shown as ␍ and <U+…>): read it as marked.";

function looksLikeDiff(preview: string): boolean {
  return preview.startsWith("---") || preview.startsWith("Index:") || preview.includes("\n@@");
}

/**
 * `room`: the rows the dialog may take, border included (layout/screen.ts dialogRoom). It spans the
 * screen's width above the status line.
 */
export function permissionLayout(dialog: PermissionDialog, width: number, room: number): PermissionLayout {
  const w = width;
  const inner = Math.max(1, w - 4);
  const maxBody = Math.max(3, room - 2);
  // Control characters become visible (sanitize); long lines wrap instead of being cut.
  const diff = looksLikeDiff(dialog.preview);
  // Invisible characters and carriage returns as marks first: sanitize would drop a lone \r.
  const revealed = revealInvisible(dialog.preview, !diff);
  const body = diff
    ? renderDiff(sanitize(revealed.text), inner, { maxLines: Number.MAX_SAFE_INTEGER })
    : wrapText(sanitize(revealed.text), inner);
  // Around the body: the why and warning lines (when there are), the hidden-lines marker and the keys
  // (two lines, or `a`'s choices and a hint).
  const keys = dialog.alwaysChoice !== null && dialog.alwaysOptions ? dialog.alwaysOptions.length + 1 : 2;
  const chrome = 1 + keys + (dialog.why ? 1 : 0) + (revealed.found ? 1 : 0);
  const viewport = Math.max(1, maxBody - chrome);
  // A multi-line command says so in the title: its later lines may hold what matters.
  const count = diff ? 1 : logicalLines(dialog.preview);
  const title = ` Allow ${sanitizeLine(dialog.tool)}?${count > 1 ? ` (${count} lines)` : ""} `;
  const layout: PermissionLayout = {
    title,
    body,
    viewport,
    maxScroll: Math.max(0, body.length - viewport),
    width: w,
    inner,
  };
  if (revealed.found) layout.warning = INVISIBLE_WARNING;
  return layout;
}

/** Whether the allow keys may act: the whole body has been on screen. */
export function permissionSeen(dialog: PermissionDialog, layout: PermissionLayout): boolean {
  return layout.maxScroll === 0 || dialog.seenEnd;
}

export function permissionView(dialog: PermissionDialog, width: number, room: number): DialogBox {
  const layout = permissionLayout(dialog, width, room);
  const { body, viewport, inner } = layout;
  const scroll = Math.min(dialog.scroll, layout.maxScroll);
  const shown = body.slice(scroll, scroll + viewport);
  const above = scroll;
  const below = Math.max(0, body.length - scroll - viewport);
  const lines: string[] = [];
  if (dialog.why) lines.push(theme.warn(sanitizeLine(dialog.why)));
  if (layout.warning) lines.push(theme.warn(layout.warning));
  lines.push(...shown);
  lines.push(hiddenMarker(above, below));
  lines.push(...keyLines(dialog, permissionSeen(dialog, layout), inner));
  return {
    title: layout.title,
    lines: lines.map((l) => boxLine(l, inner)),
    width: layout.width,
    height: lines.length + 2,
  };
}

function hiddenMarker(above: number, below: number): string {
  if (above === 0 && below === 0) return "";
  const parts: string[] = [];
  if (above > 0) parts.push(`↑ ${above} more ${above === 1 ? "line" : "lines"} above`);
  if (below > 0) parts.push(`↓ ${below} more ${below === 1 ? "line" : "lines"} below`);
  return theme.warn(`${parts.join(" · ")} (↑↓ PgUp PgDn End)`);
}

function keyLines(dialog: PermissionDialog, seen: boolean, inner: number): string[] {
  if (dialog.reason !== null) {
    const prompt = `Deny, telling the model: ${sanitizeLine(dialog.reason)}▏`;
    // The end of a long reason stays in view while it is typed.
    const tail = prompt.length > inner ? `…${prompt.slice(prompt.length - inner + 1)}` : prompt;
    return [tail, theme.dim("Enter deny with this reason · Esc back")];
  }
  const options = dialog.alwaysOptions;
  if (dialog.alwaysChoice !== null && options) {
    return [
      ...options.map((o, i) =>
        i === dialog.alwaysChoice
          ? theme.user(`› ${i + 1} always allow ${sanitizeLine(o.label)}`)
          : `  ${i + 1} always allow ${sanitizeLine(o.label)}`,
      ),
      theme.dim(`Enter or 1-${options.length} choose   Esc back`),
    ];
  }
  const always = options ? "always allow… (choose)" : `always allow ${sanitizeLine(dialog.allowKey)} this session`;
  const allow = seen
    ? `${theme.ok("y/Enter")} allow once · ${theme.ok("a")} ${always}`
    : theme.warn("scroll to the end to allow (End)");
  return [allow, `${theme.err("n")} deny · ${theme.err("e")} deny with a reason · ${theme.dim("Esc stop the run")}`];
}
