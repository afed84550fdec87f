// The dialog that asks before a project's own MCP servers start: each server, the file that
// defines it and the whole command it would run — nothing it approves is hidden.
import { sanitizeLine } from "../../render/sanitize.js";
import { theme } from "../../render/theme.js";
import { padLine, truncateLine, wrapText } from "../../render/wrap.js";
import type { Dialog } from "../model.js";

export function mcpTrustView(
  dialog: Extract<Dialog, { kind: "mcp-trust" }>,
  width: number,
  maxBody: number,
): { title: string; lines: string[]; width: number; height: number } {
  const inner = width - 4;
  const body: string[] = [
    "This project's MCP config wants to start these servers. A server runs with your permissions,",
    "so start it only if you trust this repository.",
    "",
  ];
  for (const s of dialog.servers) {
    body.push(theme.user(sanitizeLine(s.name)) + theme.dim(`  from ${sanitizeLine(s.file)}`));
    // The whole command, wrapped, never cut: it is what the user approves.
    for (const l of wrapText(sanitizeLine(s.command), inner - 4)) body.push(`    ${l}`);
  }
  const options = [
    option(dialog.choice === "allow", "Start them, and trust them in this project"),
    option(dialog.choice === "deny", "Do not start them"),
    theme.dim("Up/Down choose · Enter confirm · Esc do not start"),
  ];
  const room = Math.max(1, maxBody - options.length - 1);
  const hidden = body.length - room;
  const shown =
    hidden > 0
      ? [...body.slice(0, room - 1), theme.warn(`… ${hidden + 1} more lines not shown: read the file before you agree`)]
      : body;
  const lines = [...shown, "", ...options].map((l) => padLine(truncateLine(l, inner), inner));
  return { title: " Start this project's MCP servers? ", lines, width, height: lines.length + 2 };
}

function option(selected: boolean, text: string): string {
  return selected ? theme.user(`› ${text}`) : `  ${text}`;
}
