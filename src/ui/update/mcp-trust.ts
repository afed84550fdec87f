// Trust for a project's own MCP servers, in the UI: the dialog that asks about each waiting
// server in turn (this one / not this one / all / none), and `/mcp trust <name>` and
// `/mcp untrust <name>` to change an answer later. Pure: services remember the answers and
// answer with an mcp-config Msg, whose server list the worker syncs to (no restart needed).
import type { McpTrustRequest } from "../../protocol/mcp-state.js";
import type { McpTrustChoice, McpTrustDialog, Model } from "../model.js";
import type { Cmd, Key } from "../msg.js";
import { addEntry } from "./transcript.js";
import { trustChoices } from "../layout/mcp-trust.js";

/** Opens the dialog on these servers; "Do not start" is preselected, so a stray key starts nothing. */
export function openTrustDialog(model: Model, servers: McpTrustRequest[]): void {
  model.dialog = { kind: "mcp-trust", servers, choice: "deny-one", decisions: [] };
}

/**
 * Up/Down (or Tab) choose, Enter confirms, `n` declines the server shown; Esc and Ctrl-C decline
 * every server still waiting. No key but Enter on "Start" starts anything: `y` is not a yes here,
 * since text typed while the dialog opens at start-up must not start a project's commands.
 */
export function applyMcpTrustKey(model: Model, dialog: McpTrustDialog, key: Key, cmds: Cmd[]): void {
  if ((key.ctrl && key.name === "c") || key.name === "escape") return answer(model, dialog, "deny-all", cmds);
  const choices = trustChoices(dialog);
  const at = choices.indexOf(dialog.choice);
  switch (key.name) {
    case "up":
      dialog.choice = choices[(at - 1 + choices.length) % choices.length]!;
      return;
    case "down":
    case "tab":
      dialog.choice = choices[(at + 1) % choices.length]!;
      return;
    case "enter":
      return answer(model, dialog, dialog.choice, cmds);
    case "n":
    case "N":
      return answer(model, dialog, "deny-one", cmds);
    default:
      return;
  }
}

function answer(model: Model, dialog: McpTrustDialog, choice: McpTrustChoice, cmds: Cmd[]): void {
  const answered = choice.endsWith("-all") ? dialog.servers : dialog.servers.slice(0, 1);
  const decision = choice.startsWith("allow") ? "allow" : "deny";
  dialog.decisions.push(...answered.map((s) => ({ name: s.name, decision }) as const));
  dialog.servers = dialog.servers.slice(answered.length);
  // The next server is asked about with "Do not start" preselected again.
  dialog.choice = "deny-one";
  if (dialog.servers.length > 0) return;
  model.dialog = null;
  // Copies: a Cmd leaves immer's produce, where the dialog's arrays are drafts.
  cmds.push({ type: "mcp-trust", decisions: dialog.decisions.map((d) => ({ ...d })) });
  const names = (d: "allow" | "deny") =>
    dialog.decisions
      .filter((x) => x.decision === d)
      .map((x) => x.name)
      .join(", ");
  const parts: string[] = [];
  if (names("allow")) parts.push(`Trusted for this project: ${names("allow")} (starting).`);
  if (names("deny")) parts.push(`Not started: ${names("deny")}.`);
  parts.push("The answers are remembered per server; a changed definition asks again.");
  addEntry(model, { kind: "notice", level: "info", text: parts.join(" ") });
}

/**
 * `/mcp trust <name>`: opens the dialog on that declined server (its whole command shown before
 * the user agrees); `/mcp untrust <name>`: stops a trusted one and remembers the no.
 */
export function runMcpTrustCommand(model: Model, sub: "trust" | "untrust", name: string | undefined, cmds: Cmd[]) {
  const notice = (text: string, level: "info" | "warn" = "info") => addEntry(model, { kind: "notice", level, text });
  if (!name) return notice(`Usage: /mcp ${sub} <name> (/mcp lists the servers).`, "warn");
  if (model.dialog) return notice("Answer the open dialog first.", "warn");
  const { pending, denied } = model.mcpProject;
  const declined = [...pending, ...denied].find((s) => s.name === name);
  const trusted = model.mcpProject.trusted.includes(name);
  if (sub === "trust") {
    if (declined) return openTrustDialog(model, [declined]);
    if (trusted) return notice(`${name} is trusted for this project already.`);
  } else {
    if (trusted) {
      cmds.push({ type: "mcp-trust", decisions: [{ name, decision: "deny" }] });
      return notice(`No longer trusted: ${name} (stopping). /mcp trust ${name} starts it again.`);
    }
    if (declined) return notice(`${name} is not trusted (not started).`);
  }
  if (model.mcp.some((s) => s.name === name))
    return notice(`${name} comes from your own config, not the project's: it starts without asking.`);
  notice(`No project MCP server named ${name}. /mcp lists them.`, "warn");
}
