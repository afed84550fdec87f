// The dialog that asks before a project's own MCP servers start: one server at a time, named with
// the file that defines it and the whole command it would run; the others waiting are shown whole
// too, since "Start all" approves them — nothing it approves is hidden.
import { sanitizeLine } from "../../render/sanitize.js";
import { theme } from "../../render/theme.js";
import { wrapText } from "../../render/wrap.js";
import type { McpTrustRequest } from "../../protocol/mcp-state.js";
import type { McpTrustChoice, McpTrustDialog } from "../model.js";
import { trustChoices } from "../layout/mcp-trust.js";
import { boxLine, type DialogBox } from "../layout/dialog-box.js";

const INTRO: Readonly<Record<NonNullable<McpTrustRequest["kind"]> | "server", readonly string[]>> = {
  server: [
    "This project's MCP config wants to start a server. It runs with your permissions,",
    "so start it only if you trust this repository.",
  ],
  settings: [
    "This project's settings file has hooks (commands agent0 would run with your permissions)",
    "or rules that allow tools without asking. Trust it only if you trust this repository.",
  ],
  plugin: [
    "This project has an Agent Plugin (.agents/plugins): its skills become instructions the model",
    "follows, and its MCP servers (each asked again) run with your permissions. Trust it only if you",
    "trust this repository.",
  ],
};
const TITLE: Readonly<Record<NonNullable<McpTrustRequest["kind"]> | "server", string>> = {
  server: " Start this project's MCP servers? ",
  settings: " Trust this project's hooks and rules? ",
  plugin: " Trust this project's plugin? ",
};

export function mcpTrustView(dialog: McpTrustDialog, width: number, maxBody: number): DialogBox {
  const inner = Math.max(1, width - 4);
  const [current, ...others] = dialog.servers;
  const settings = current?.kind === "settings" || current?.kind === "plugin";
  const body: string[] = [...INTRO[current?.kind ?? "server"], ""];
  if (current) {
    const of = dialog.servers.length + dialog.decisions.length;
    const counter = of > 1 ? theme.dim(`  (${dialog.decisions.length + 1} of ${of})`) : "";
    body.push(...serverLines(current, inner, theme.user), ...(counter ? [counter] : []));
  }
  if (others.length > 0) {
    body.push("", theme.dim(`Also waiting (${others.length}):`));
    for (const s of others) body.push(...serverLines(s, inner, (t) => t));
  }
  const name = current ? sanitizeLine(current.name) : "";
  const label: Record<McpTrustChoice, string> = {
    "allow-one": settings ? `Trust ${name} in this project` : `Start ${name}, and trust it in this project`,
    "deny-one": settings ? `Do not trust ${name} (its deny and ask rules still count)` : `Do not start ${name}`,
    "allow-all": `Start all ${dialog.servers.length}, and trust them in this project`,
    "deny-all": `Start none of them`,
  };
  const options = [
    ...trustChoices(dialog).map((c) => option(dialog.choice === c, label[c])),
    // No `y`: this asks unbidden at start-up, and a "y" typed into a word must not start a
    // project's command; `n` and Esc only ever decline.
    theme.dim("↑↓ choose · Enter confirm · n do not start this one · Esc start none"),
  ];
  const room = Math.max(1, maxBody - options.length - 1);
  const hidden = body.length - room;
  const shown =
    hidden > 0
      ? [...body.slice(0, room - 1), theme.warn(`… ${hidden + 1} more lines not shown: read the file before you agree`)]
      : body;
  const lines = [...shown, "", ...options].map((l) => boxLine(l, inner));
  const title = TITLE[current?.kind ?? "server"];
  return { title, lines, width, height: lines.length + 2 };
}

/** A server's name and file, then its whole command, wrapped, never cut: it is what the user approves. */
function serverLines(s: McpTrustRequest, inner: number, style: (t: string) => string): string[] {
  return [
    style(sanitizeLine(s.name)) + theme.dim(`  from ${sanitizeLine(s.file)}`),
    ...s.command.split("\n").flatMap((line) => wrapText(sanitizeLine(line), inner - 4).map((l) => `    ${l}`)),
  ];
}

function option(selected: boolean, text: string): string {
  return selected ? theme.user(`› ${text}`) : `  ${text}`;
}
