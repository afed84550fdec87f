// MCP in the UI: which servers run (synced to the worker; trust is in mcp-trust.ts), /mcp and
// /mcp restart, server prompts as /mcp__server__prompt, and @server:uri
// mentions that attach a resource. Pure: the worker does the talking (Cmds and AgentEvents).
import type { McpConfigured, McpServerView, McpTrustRequest } from "../../protocol/mcp-state.js";
import type { ImageAttachment } from "../../protocol/conversation.js";
import type { Model } from "../model.js";
import type { Cmd } from "../msg.js";
import { resourceMentionsIn, type ResourceMention } from "../../context/mention-parse.js";
import type { CommandItem, MentionItem } from "../steer-types.js";
import { plain } from "./plain.js";
import { addEntry } from "./transcript.js";
import { openTrustDialog, runMcpTrustCommand } from "./mcp-trust.js";
import { findPrompt, promptArguments, promptCommand, promptUsage } from "../../context/mcp-prompts.js";

/** Servers to run go to the worker; project servers nobody decided on open the trust dialog. */
export function applyMcpConfig(model: Model, mcp: McpConfigured, cmds: Cmd[]): void {
  model.config.mcpServers = mcp.servers;
  if (mcp.settings) {
    // The flags' rules stay; the files' rules and hooks are what the files say now.
    const flags = (model.config.permissionRules ?? []).filter((r) => r.source.startsWith("--"));
    model.config.permissionRules = [...flags, ...mcp.settings.rules];
    model.config.hooks = mcp.settings.hooks;
    if (mcp.settings.statusLine) model.config.statusLine = mcp.settings.statusLine;
    else delete model.config.statusLine;
  }
  model.mcpProject = { pending: mcp.pending, denied: mcp.denied, trusted: mcp.trusted };
  if (mcp.plugins) {
    model.plugins = mcp.plugins.list;
    if (mcp.plugins.skills.length) model.config.pluginSkills = mcp.plugins.skills;
    else delete model.config.pluginSkills;
  }
  cmds.push({ type: "worker", command: { type: "mcp-sync", servers: plain(mcp.servers), cwd: model.config.cwd } });
  if (mcp.pending.length === 0) return;
  if (!model.dialog) openTrustDialog(model, mcp.pending);
  else
    addEntry(model, {
      kind: "notice",
      level: "warn",
      text: `Not started (not trusted yet): ${mcp.pending.map((p) => p.name).join(", ")}. /mcp trust <name> asks.`,
    });
}

/** `/mcp`, `/mcp restart <name>`, `/mcp trust <name>` and `/mcp untrust <name>`. */
export function runMcpCommand(model: Model, args: string, cmds: Cmd[]): void {
  const [sub = "", name] = args.split(/\s+/).filter(Boolean);
  if (sub === "")
    return notice(model, formatMcpStatus(model.mcp, [...model.mcpProject.pending, ...model.mcpProject.denied]));
  if (sub === "trust" || sub === "untrust") return runMcpTrustCommand(model, sub, name, cmds);
  if (sub === "restart") {
    if (!name) return notice(model, "Usage: /mcp restart <name> (/mcp lists the servers).", "warn");
    if (!model.mcp.some((s) => s.name === name))
      return notice(model, `No MCP server named ${name}. /mcp lists them.`, "warn");
    cmds.push({ type: "worker", command: { type: "mcp-restart", name } });
    return notice(model, `Restarting MCP server ${name}…`);
  }
  notice(
    model,
    `Unknown: /mcp ${sub}. Use /mcp, /mcp restart <name>, /mcp trust <name> or /mcp untrust <name>.`,
    "warn",
  );
}

/** The text of /mcp: each server, its state, what it offers, and its last error; then the declined ones. */
export function formatMcpStatus(servers: readonly McpServerView[], declined: readonly McpTrustRequest[] = []): string {
  const notStarted = declined.map((d) => `  ${d.name} — not started (not trusted; /mcp trust ${d.name} starts it)`);
  if (servers.length === 0 && notStarted.length > 0) return ["MCP servers (0 running):", ...notStarted].join("\n");
  if (servers.length === 0) {
    return 'No MCP servers running. Add them under "mcpServers" in ~/.config/agent0/config.json, .agent0/mcp.json or .mcp.json (agent0 mcp list shows what is configured).';
  }
  const lines = [`MCP servers (${servers.length}):`];
  for (const s of servers) {
    if (s.state === "failed") {
      lines.push(`  ${s.name} — failed: ${s.error ?? "unknown error"}`);
      continue;
    }
    const facts: string[] = [s.transport];
    if (s.pid !== undefined) facts.push(`pid ${s.pid}`);
    facts.push(count(s.tools.length, "tool"), count(s.prompts.length, "prompt"), count(s.resources.length, "resource"));
    if (s.trusted) facts.push("trusted");
    const tools = s.state === "running" && s.tools.length ? `: ${s.tools.join(", ")}` : "";
    lines.push(`  ${s.name} — ${s.state} (${facts.join(", ")})${tools}`);
    if (s.prompts.length)
      lines.push(`      prompts: ${s.prompts.map((p) => `/${promptCommand(s.name, p.name)}`).join(" ")}`);
  }
  return [...lines, ...notStarted].join("\n");
}

function count(n: number, what: string): string {
  return `${n} ${what}${n === 1 ? "" : "s"}`;
}

/** The slash menu's items of one running server: its prompts, with their arguments. */
export function promptItems(server: McpServerView): CommandItem[] {
  return server.prompts.map((p) => ({
    name: promptCommand(server.name, p.name),
    description: p.description ?? "",
    source: mcpSource(server.name),
    ...(p.arguments.length ? { args: promptUsage(p) } : {}),
  }));
}

/**
 * The @ menu's items of one running server: its resources as `server:uri`, and its resource
 * templates as the fixed start of their URI (`server:demo://text/` for `demo://text/{id}`), for
 * the user to finish.
 */
export function resourceItems(server: McpServerView): MentionItem[] {
  const source = mcpSource(server.name);
  const resources = server.resources.map((r) => ({
    value: `${server.name}:${r.uri}`,
    detail: r.name ?? r.description ?? r.mimeType ?? "",
    source,
  }));
  const templates = server.resourceTemplates.flatMap((t) => {
    const fixed = t.uriTemplate.slice(0, t.uriTemplate.search(/\{|$/));
    if (!fixed || resources.some((r) => r.value === `${server.name}:${fixed}`)) return [];
    return [
      {
        value: `${server.name}:${fixed}`,
        detail: `${t.uriTemplate}${t.name ? ` — ${t.name}` : ""}`,
        source,
        partial: true,
      },
    ];
  });
  return [...resources, ...templates];
}

function mcpSource(server: string): string {
  return `mcp:${server}`;
}

/** Keeps the slash menu's prompts and the @ menu's resources in step with the running servers. */
export function applyMcpState(model: Model, servers: McpServerView[]): void {
  model.mcp = servers;
  const running = servers.filter((s) => s.state === "running");
  const fromMcp = (source: string) => source.startsWith("mcp:");
  model.commands = [...model.commands.filter((c) => !fromMcp(c.source)), ...running.flatMap(promptItems)];
  model.mentionItems = [...model.mentionItems.filter((i) => !fromMcp(i.source)), ...running.flatMap(resourceItems)];
}

/**
 * `/mcp__server__prompt args` (or `/server:prompt args`): asks the worker to render the prompt.
 * Arguments are `name=value` pairs, or plain words given in the prompt's argument order (the
 * last one takes the rest of the line). False when `head` names no prompt.
 */
export function runMcpPrompt(model: Model, head: string, args: string, line: string, cmds: Cmd[]): boolean {
  const found = findPrompt(model.mcp, head);
  if (!found) return false;
  if (model.run) {
    notice(model, "Wait for the current answer to end (or press Esc) first.", "warn");
    return true;
  }
  const { server, prompt } = found;
  const parsed = promptArguments(prompt, args);
  if (!parsed.ok) {
    notice(model, `/${head} needs ${parsed.missing.join(", ")}. Usage: /${head} ${promptUsage(prompt)}`, "warn");
    return true;
  }
  const values = parsed.values;
  const mentions = findMentions(model.mcp, args);
  cmds.push({
    type: "worker",
    command: {
      type: "mcp-expand",
      request: { typed: line, text: "", prompt: { server, name: prompt.name, args: values }, resources: mentions },
    },
  });
  return true;
}

/** The servers whose resources a message can name. */
export function runningServers(servers: readonly McpServerView[]): string[] {
  return servers.filter((s) => s.state === "running").map((s) => s.name);
}

/** `@server:uri` mentions of running servers in a message. */
export function findMentions(servers: readonly McpServerView[], text: string): ResourceMention[] {
  return resourceMentionsIn(text, runningServers(servers));
}

/** A message that mentions MCP resources is sent once the worker has read them. */
export function expandMentions(
  model: Model,
  typed: string,
  cmds: Cmd[],
  text = typed,
  images?: ImageAttachment[],
): boolean {
  const resources = findMentions(model.mcp, typed);
  if (resources.length === 0) return false;
  const request = { typed, text, resources, ...(images?.length ? { images } : {}) };
  cmds.push({ type: "worker", command: { type: "mcp-expand", request } });
  return true;
}

function notice(model: Model, text: string, level: "info" | "warn" = "info"): void {
  addEntry(model, { kind: "notice", level, text });
}
