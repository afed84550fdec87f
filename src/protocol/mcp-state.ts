// Part of protocol/: plain data that crosses postMessage between the UI thread and the agent
// worker (structured-clone safe: no functions, no classes). What the UI knows of the MCP servers
// the worker runs: enough for /mcp, prompts as slash commands and resources as @mentions.

import type { McpServerConfig, McpTransportKind } from "./run-config.js";
import type { HooksConfig, StatusLineConfig } from "./hooks.js";
import type { PermissionRule } from "./permission-rule.js";
import type { ImageAttachment } from "./conversation.js";
import type { PluginSkillFile, PluginView } from "./plugins.js";

export type McpState = "starting" | "running" | "failed" | "stopped";

export interface McpPromptArgument {
  name: string;
  description?: string;
  required?: boolean;
}

export interface McpPromptInfo {
  name: string;
  description?: string;
  arguments: McpPromptArgument[];
}

export interface McpResourceInfo {
  uri: string;
  name?: string;
  description?: string;
  mimeType?: string;
}

export interface McpResourceTemplateInfo {
  uriTemplate: string;
  name?: string;
  description?: string;
}

export interface McpServerView {
  name: string;
  state: McpState;
  transport: McpTransportKind;
  /** Its tools run without asking. */
  trusted: boolean;
  error?: string;
  /** Process id of a running stdio server. */
  pid?: number;
  /** The tools' names on the server (the model sees them as mcp__<server>__<tool>). */
  tools: string[];
  prompts: McpPromptInfo[];
  resources: McpResourceInfo[];
  resourceTemplates: McpResourceTemplateInfo[];
}

/** A user turn built from MCP material: a server prompt typed as a slash command and @server:uri mentions. */
export interface McpExpandRequest {
  /** What the user typed, shown in the transcript and saved as `typed`. */
  typed: string;
  /** The text to send, before the resources' content is attached. */
  text: string;
  prompt?: { server: string; name: string; args: Record<string, string> };
  resources: { server: string; uri: string }[];
  /** Images the message already carries (`@picture.png`): they go along with the resources'. */
  images?: ImageAttachment[];
}

/** A project server (or settings file with hooks and allow rules) waiting for the user's trust: what the dialog names. */
export interface McpTrustRequest {
  /**
   * "settings": a project settings file; `command` lists its hooks and allow rules, one per line.
   * "plugin": a project's Agent Plugin; `command` lists its skills and MCP servers.
   */
  kind?: "settings" | "plugin";
  name: string;
  /** The command line (or transport and URL) it would run. */
  command: string;
  /** The file that defines it. */
  file: string;
}

export type McpTrustDecision = "allow" | "deny";

/** The servers to run and those waiting for a decision (at boot, after a decision, at /new). */
export interface McpConfigured {
  servers: Record<string, McpServerConfig>;
  pending: McpTrustRequest[];
  /** Project servers the user said no to (`/mcp trust <name>` starts one). */
  denied: McpTrustRequest[];
  /** Project servers the user trusted (`/mcp untrust <name>` stops one). */
  trusted: string[];
  /** Hooks and permission rules that count now (settings files; a project's once trusted). */
  settings?: { hooks: HooksConfig; rules: PermissionRule[]; statusLine?: StatusLineConfig };
  /** The Agent Plugins found, and the skills of those that count now. */
  plugins?: { list: PluginView[]; skills: PluginSkillFile[] };
}
