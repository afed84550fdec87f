// `hooks` and `permissions` as Claude Code writes them (docs.anthropic.com/en/docs/claude-code/settings),
// read from the user's own files — agent0's config.json, Claude Code's `~/.claude/settings.json` and
// `~/.claude/settings.local.json` — and from a project's `.claude/settings.json`,
// `.claude/settings.local.json` and `.agent0/settings.json`, so those files carry over unchanged.
// The order is Claude Code's precedence, lowest first (user < project < project local): hooks run in
// that order, and the last `defaultMode` wins. A project file's hooks run its repository's programs
// and its allow rules grant without asking: both count only once the user trusts that file (the
// same question and store as project MCP servers, mcp-trust.ts). Its deny and ask rules always count.
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { basename, dirname, join, relative } from "node:path";
import {
  HOOK_EVENTS,
  type HookEvent,
  type HookGroup,
  type HooksConfig,
  type StatusLineConfig,
} from "../protocol/hooks.js";
import type { PermissionMode } from "../protocol/run-config.js";
import { parseRule, RULE_KINDS, type PermissionRule, type RuleKind } from "./permission-rules.js";

/** What one settings file holds that agent0 reads. */
export interface SettingsFile {
  file: string;
  scope: "user" | "project";
  hooks: HooksConfig;
  rules: PermissionRule[];
  /** A command, like a hook: a project file's runs only once trusted. */
  statusLine?: StatusLineConfig;
  /** `permissions.defaultMode` in agent0's words. */
  defaultMode?: PermissionMode;
  /** `permissions.additionalDirectories`: more folders the tools may use, as `--add-dir` gives them. */
  additionalDirectories?: string[];
}

/** Claude Code's own settings files for the user (its "user" scope), lowest precedence first. */
export function userClaudeSettingsFiles(home: string): string[] {
  return [join(home, ".claude", "settings.json"), join(home, ".claude", "settings.local.json")];
}

export function projectSettingsFiles(cwd: string): string[] {
  return [
    join(cwd, ".claude", "settings.json"),
    join(cwd, ".claude", "settings.local.json"),
    join(cwd, ".agent0", "settings.json"),
  ];
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** `hooks` as Claude Code writes it; each bad part is skipped with a warning naming it. */
export function parseHooks(file: string, raw: unknown, warnings: string[]): HooksConfig {
  const out: HooksConfig = {};
  if (raw === undefined) return out;
  if (!isObject(raw)) {
    warnings.push(`${file}: hooks: expected an object of events — ignored`);
    return out;
  }
  for (const [event, groups] of Object.entries(raw)) {
    if (!(HOOK_EVENTS as readonly string[]).includes(event)) {
      warnings.push(`${file}: hooks.${event}: not an event agent0 runs (${HOOK_EVENTS.join(", ")}) — ignored`);
      continue;
    }
    if (!Array.isArray(groups)) {
      warnings.push(`${file}: hooks.${event}: expected a list of matchers — ignored`);
      continue;
    }
    const list: HookGroup[] = [];
    groups.forEach((g: unknown, i) => {
      const where = `${file}: hooks.${event}[${i}]`;
      if (!isObject(g) || !Array.isArray(g.hooks))
        return warnings.push(`${where}: expected {matcher, hooks: [...]} — ignored`);
      const matcher = typeof g.matcher === "string" ? g.matcher : undefined;
      if (matcher && matcher !== "*" && !validRegex(matcher))
        return warnings.push(`${where}.matcher: not a regular expression — ignored`);
      const hooks = g.hooks.flatMap((h: unknown, j) => {
        if (isObject(h) && h.type === "command" && typeof h.command === "string" && h.command.trim()) {
          const timeout = typeof h.timeout === "number" && h.timeout > 0 ? h.timeout : undefined;
          return [{ type: "command" as const, command: h.command, ...(timeout ? { timeout } : {}) }];
        }
        warnings.push(`${where}.hooks[${j}]: only {type: "command", command} hooks run in agent0 — ignored`);
        return [];
      });
      if (hooks.length) list.push({ ...(matcher ? { matcher } : {}), hooks, source: file });
    });
    if (list.length) out[event as HookEvent] = list;
  }
  return out;
}

function validRegex(s: string): boolean {
  try {
    new RegExp(s);
    return true;
  } catch {
    return false;
  }
}

/** `statusLine: {type: "command", command}` (Claude Code's shape; `padding` has no use here). */
export function parseStatusLine(file: string, raw: unknown, warnings: string[]): StatusLineConfig | undefined {
  if (raw === undefined) return undefined;
  if (isObject(raw) && raw.type === "command" && typeof raw.command === "string" && raw.command.trim())
    return { command: raw.command, source: file };
  warnings.push(`${file}: statusLine: expected {"type": "command", "command": "..."} — ignored`);
  return undefined;
}

/** Claude Code's permission modes (settings `permissions.defaultMode`) as agent0's. */
const CLAUDE_MODES: Readonly<Record<string, PermissionMode>> = {
  default: "ask",
  acceptEdits: "auto-edit",
  plan: "plan",
  bypassPermissions: "yolo",
};

function parseDefaultMode(file: string, raw: unknown, warnings: string[]): PermissionMode | undefined {
  if (!isObject(raw) || raw.defaultMode === undefined) return undefined;
  const mode = typeof raw.defaultMode === "string" ? CLAUDE_MODES[raw.defaultMode] : undefined;
  if (!mode)
    warnings.push(
      `${file}: permissions.defaultMode: ${JSON.stringify(raw.defaultMode)} has no agent0 mode (${Object.keys(CLAUDE_MODES).join(", ")}) — ignored`,
    );
  return mode;
}

function parseAdditionalDirectories(file: string, raw: unknown, warnings: string[]): string[] | undefined {
  if (!isObject(raw) || raw.additionalDirectories === undefined) return undefined;
  const list = raw.additionalDirectories;
  if (Array.isArray(list) && list.every((d) => typeof d === "string")) return list as string[];
  warnings.push(`${file}: permissions.additionalDirectories: expected a list of folders — ignored`);
  return undefined;
}

/** `permissions: {allow, ask, deny}`; a rule that does not parse is skipped with a warning. */
export function parsePermissions(file: string, raw: unknown, warnings: string[]): PermissionRule[] {
  if (raw === undefined) return [];
  if (!isObject(raw)) {
    warnings.push(`${file}: permissions: expected {allow, ask, deny} — ignored`);
    return [];
  }
  const rules: PermissionRule[] = [];
  for (const kind of RULE_KINDS) {
    const list = raw[kind];
    if (list === undefined) continue;
    if (!Array.isArray(list)) {
      warnings.push(`${file}: permissions.${kind}: expected a list of rules — ignored`);
      continue;
    }
    for (const rule of list) {
      if (typeof rule === "string" && parseRule(rule)) rules.push({ rule, kind: kind as RuleKind, source: file });
      else
        warnings.push(
          `${file}: permissions.${kind}: ${JSON.stringify(rule)} is not a rule like Bash(npm test:*) — ignored`,
        );
    }
  }
  return rules;
}

function readSettings(file: string, scope: SettingsFile["scope"], warnings: string[]): SettingsFile | undefined {
  if (!existsSync(file)) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, "utf8"));
  } catch (err) {
    warnings.push(`${file}: not valid JSON (${(err as Error).message}) — ignored`);
    return undefined;
  }
  if (!isObject(parsed)) {
    warnings.push(`${file}: expected a JSON object — ignored`);
    return undefined;
  }
  const statusLine = parseStatusLine(file, parsed.statusLine, warnings);
  const defaultMode = parseDefaultMode(file, parsed.permissions, warnings);
  const additionalDirectories = parseAdditionalDirectories(file, parsed.permissions, warnings);
  return {
    file,
    scope,
    hooks: parseHooks(file, parsed.hooks, warnings),
    rules: parsePermissions(file, parsed.permissions, warnings),
    ...(statusLine ? { statusLine } : {}),
    ...(defaultMode ? { defaultMode } : {}),
    ...(additionalDirectories?.length ? { additionalDirectories } : {}),
  };
}

/** The name a project settings file has in the trust store. */
export function settingsTrustName(cwd: string, file: string): string {
  return `settings:${relative(cwd, file)}`;
}

/**
 * What the user approves of a project file: its hooks, status line command and allow rules (not its
 * deny and ask rules).
 */
export function settingsTrustHash(s: SettingsFile): string {
  const granted = {
    hooks: s.hooks,
    allow: s.rules.filter((r) => r.kind === "allow").map((r) => r.rule),
    // Absent when there is none: a file trusted before status lines were read keeps its trust.
    ...(s.statusLine ? { statusLine: s.statusLine.command } : {}),
  };
  const stable = JSON.stringify(granted, (k, v: unknown) => (k === "source" ? undefined : v));
  return createHash("sha256").update(stable).digest("hex");
}

/** Whether the file asks for trust at all: hooks or a status line to run, or rules that grant. */
export function needsTrust(s: SettingsFile): boolean {
  return Object.keys(s.hooks).length > 0 || s.rules.some((r) => r.kind === "allow") || s.statusLine !== undefined;
}

/** A project file's commands and grants as one line per item: what the trust dialog shows whole. */
export function describeSettings(s: SettingsFile): string {
  const lines: string[] = [];
  for (const [event, groups] of Object.entries(s.hooks))
    for (const g of groups ?? [])
      for (const h of g.hooks) lines.push(`hook ${event}${g.matcher ? `(${g.matcher})` : ""}: ${h.command}`);
  for (const r of s.rules) if (r.kind === "allow") lines.push(`allow ${r.rule}`);
  if (s.statusLine) lines.push(`status line: ${s.statusLine.command}`);
  return lines.join("\n");
}

export interface LoadedSettings {
  /** The user's own settings (config.json, ~/.claude) and each project file found, in order. */
  files: SettingsFile[];
  warnings: string[];
}

/**
 * The user's `hooks`/`permissions` (from config.json's raw object), Claude Code's user settings in
 * `home`, and the project's settings files.
 */
export function loadSettingsFiles(
  cwd: string,
  user: { file: string; hooks?: unknown; permissions?: unknown; statusLine?: unknown },
  home: string,
): LoadedSettings {
  const warnings: string[] = [];
  const files: SettingsFile[] = [];
  const statusLine = parseStatusLine(user.file, user.statusLine, warnings);
  const own: SettingsFile = {
    file: user.file,
    scope: "user",
    hooks: parseHooks(user.file, user.hooks, warnings),
    rules: parsePermissions(user.file, user.permissions, warnings),
    ...(statusLine ? { statusLine } : {}),
  };
  if (needsTrust(own) || own.rules.length) files.push(own);
  for (const f of userClaudeSettingsFiles(home)) {
    const s = readSettings(f, "user", warnings);
    if (s) files.push(s);
  }
  for (const f of projectSettingsFiles(cwd)) {
    const s = readSettings(f, "project", warnings);
    if (s) files.push(s);
  }
  return { files, warnings };
}

/** Hooks of every file given, merged per event in file order. */
export function mergeHooks(files: readonly SettingsFile[]): HooksConfig {
  const out: HooksConfig = {};
  for (const f of files)
    for (const event of HOOK_EVENTS) {
      const groups = f.hooks[event];
      if (groups) (out[event] ??= []).push(...groups);
    }
  return out;
}

/**
 * What counts: every file's deny and ask rules; allow rules and hooks of the user's files and of
 * the project files `trusted` approves. `defaultMode` is the user's own (the last file that sets
 * one): a repository may not choose a mode that asks less. Extra folders, like allow rules, come
 * from the user's files and trusted project files: an untrusted clone may not reach beyond itself.
 */
export function effectiveSettings(
  files: readonly SettingsFile[],
  trusted: (s: SettingsFile) => boolean,
): {
  hooks: HooksConfig;
  rules: PermissionRule[];
  statusLine?: StatusLineConfig;
  defaultMode?: PermissionMode;
  additionalDirectories?: string[];
} {
  const granted = files.filter((f) => f.scope === "user" || trusted(f));
  const rules = files.flatMap((f) => (granted.includes(f) ? f.rules : f.rules.filter((r) => r.kind !== "allow")));
  const defaultMode = files.filter((f) => f.scope === "user" && f.defaultMode).at(-1)?.defaultMode;
  const statusLine = statusLineOf(granted);
  const additionalDirectories = granted.flatMap((f) => f.additionalDirectories ?? []);
  return {
    hooks: mergeHooks(granted),
    rules,
    ...(statusLine ? { statusLine } : {}),
    ...(defaultMode ? { defaultMode } : {}),
    ...(additionalDirectories.length ? { additionalDirectories } : {}),
  };
}

/**
 * Which status line counts: a trusted project's (the last file that sets one, as Claude Code's
 * local file beats its shared one), else agent0's own config.json, else Claude Code's user files.
 */
function statusLineOf(granted: readonly SettingsFile[]): StatusLineConfig | undefined {
  const last = (fs: readonly SettingsFile[]) => fs.findLast((f) => f.statusLine)?.statusLine;
  const claudeUser = (f: SettingsFile) => f.scope === "user" && basename(dirname(f.file)) === ".claude";
  return (
    last(granted.filter((f) => f.scope === "project")) ??
    last(granted.filter((f) => f.scope === "user" && !claudeUser(f))) ??
    last(granted.filter(claudeUser))
  );
}
