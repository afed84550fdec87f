// `/plugins`: the Agent Plugins found (the user's ~/.agents/plugins and the project's
// .agents/plugins), where each comes from and what it brings; enable and disable one (saved to
// config.json); trust or untrust a project's. Pure: services save and read again (Cmds).
import type { PluginView } from "../../protocol/plugins.js";
import { sanitizeLine } from "../../render/sanitize.js";
import type { Model } from "../model.js";
import type { Cmd } from "../msg.js";
import { openTrustDialog } from "./mcp-trust.js";
import { addEntry } from "./transcript.js";

const USAGE = "/plugins enable|disable <name> · /plugins trust|untrust <name> (a project's)";

export function runPluginsCommand(model: Model, args: string, cmds: Cmd[]): void {
  const notice = (text: string, level: "info" | "warn" = "info") => addEntry(model, { kind: "notice", level, text });
  const [sub = "", name] = args.split(/\s+/).filter(Boolean);
  if (sub === "") return notice(formatPlugins(model.plugins));
  const known = ["enable", "disable", "trust", "untrust"];
  if (!known.includes(sub)) return notice(`Unknown: /plugins ${sub}. Use /plugins, ${USAGE}.`, "warn");
  if (!name) return notice(`Usage: /plugins ${sub} <name> (/plugins lists them).`, "warn");
  const plugin = model.plugins.find((p) => p.name === name);
  if (!plugin) return notice(`No plugin named ${name}. /plugins lists them.`, "warn");
  if (sub === "enable" || sub === "disable") {
    const enabled = sub === "enable";
    if (plugin.enabled === enabled) return notice(`${name} is ${sub}d already.`);
    cmds.push({ type: "plugin-enable", name, enabled });
    return;
  }
  if (plugin.scope === "user") return notice(`${name} is your own plugin (~/.agents/plugins): it needs no trust.`);
  if (model.dialog) return notice("Answer the open dialog first.", "warn");
  const trustName = `plugin:${name}`;
  if (sub === "trust") {
    if (plugin.trust === "trusted") return notice(`${name} is trusted for this project already.`);
    const request = [...model.mcpProject.pending, ...model.mcpProject.denied].find((r) => r.name === trustName);
    if (!request) return notice(`${name} is disabled: /plugins enable ${name} first.`, "warn");
    return openTrustDialog(model, [request]);
  }
  if (plugin.trust !== "trusted") return notice(`${name} is not trusted (its skills and servers are off).`);
  cmds.push({ type: "mcp-trust", decisions: [{ name: trustName, decision: "deny" }] });
  notice(`No longer trusted: ${name} (its skills and servers are off). /plugins trust ${name} asks again.`);
}

/** The text of /plugins: each plugin, where from, its state and what it brings. */
export function formatPlugins(plugins: readonly PluginView[], footer = USAGE): string {
  if (plugins.length === 0)
    return [
      "No Agent Plugins found.",
      "A plugin is a folder with a plugin.json (agent-plugins.org), in ~/.agents/plugins/ (yours) or",
      "the project's .agents/plugins/. `agent0 plugins install <path|git url>` puts one in yours.",
    ].join("\n");
  const lines = ["Agent Plugins:"];
  for (const p of plugins) {
    const head = [p.version ? `${p.name} ${p.version}` : p.name, p.scope === "user" ? "yours" : "this project's"];
    lines.push(`  ${sanitizeLine(head.join(" · "))} · ${stateOf(p)}`);
    lines.push(`    ${sanitizeLine(p.root)}`);
    if (p.description) lines.push(`    ${sanitizeLine(p.description)}`);
    const brings = [
      p.skills.length ? `skills: ${p.skills.map((s) => `/${s}`).join(" ")}` : "",
      p.servers.length ? `MCP servers: ${p.servers.join(", ")}` : "",
    ].filter(Boolean);
    lines.push(`    ${brings.length ? sanitizeLine(brings.join(" · ")) : "brings no skills and no MCP servers"}`);
    if (p.extensions.length)
      lines.push(`    not read (other clients' extensions): ${sanitizeLine(p.extensions.join(", "))}`);
    for (const w of p.warnings) lines.push(`    ! ${sanitizeLine(w)}`);
  }
  lines.push(footer);
  return lines.join("\n");
}

function stateOf(p: PluginView): string {
  if (!p.enabled) return "disabled";
  switch (p.trust) {
    case "user":
    case "trusted":
      return "enabled";
    case "pending":
      return `enabled, not trusted yet (/plugins trust ${p.name})`;
    case "denied":
      return `enabled, not trusted (/plugins trust ${p.name})`;
  }
}
