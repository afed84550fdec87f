// The open dialog, drawn across the screen's width above the status line: the permission
// question, the MCP trust question, or a picker (/model, /sessions). Every footer names its keys.
import { sanitizeLine } from "../../render/sanitize.js";
import { theme } from "../../render/theme.js";
import type { Dialog, PickerItem } from "../model.js";
import { permissionView } from "../layout/permission.js";
import { mcpTrustView } from "./mcp-trust.js";
import { engineOfferView } from "./engine-offer.js";
import { boxLine, type DialogBox } from "../layout/dialog-box.js";

/** `room`: the rows the box may take, its border included (layout/screen.ts dialogRoom). */
export function dialogView(dialog: Dialog, width: number, room: number): DialogBox {
  if (dialog.kind === "permission") return permissionView(dialog, width, room);
  if (dialog.kind === "mcp-trust") return mcpTrustView(dialog, width, Math.max(3, room - 2));
  if (dialog.kind === "engine-offer") return engineOfferView(dialog, width);
  return pickerView(dialog, width, room);
}

function pickerView(dialog: Extract<Dialog, { kind: "picker" }>, width: number, room: number): DialogBox {
  const inner = Math.max(1, width - 4);
  const footer =
    dialog.purpose === "model"
      ? "↑↓ choose · Enter use · s use and save as default · Esc close"
      : "↑↓ choose · Enter open · Esc close";
  const count = dialog.items.length;
  const visible = Math.max(1, Math.min(count, room - 3));
  const first = Math.max(0, Math.min(dialog.selected - Math.floor(visible / 2), count - visible));
  const label = Math.min(40, Math.max(...dialog.items.map((i) => sanitizeLine(i.label).length)));
  const rows = dialog.items.slice(first, first + visible).map((item, i) => {
    const selected = first + i === dialog.selected;
    return pickerRow(item, selected, label);
  });
  const more = count > visible ? theme.dim(` (${dialog.selected + 1} of ${count})`) : "";
  const lines = [...rows, theme.dim(footer) + more].map((l) => boxLine(l, inner));
  return { title: ` ${sanitizeLine(dialog.title)} `, lines, width, height: lines.length + 2 };
}

function pickerRow(item: PickerItem, selected: boolean, labelWidth: number): string {
  const name = sanitizeLine(item.label).padEnd(labelWidth);
  const mark = item.current ? theme.ok(" ● current") : "";
  const text = `${selected ? "›" : " "} ${selected ? theme.user(name) : name}`;
  return text + mark + (item.detail ? theme.dim("  " + sanitizeLine(item.detail)) : "");
}
