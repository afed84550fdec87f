// Changes to the `permissions` of a settings file (the project's `.agent0/settings.json`, a
// `.claude/settings*.json`, or the user's config.json), keeping every other key as it was.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import type { RuleKind } from "./permission-rules.js";

function readObject(file: string): Record<string, unknown> {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    return {}; // a new file
  }
  const parsed: unknown = JSON.parse(text);
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed))
    throw new Error("it does not hold a JSON object");
  return parsed as Record<string, unknown>;
}

function writeObject(file: string, value: Record<string, unknown>): void {
  mkdirSync(dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(value, null, 2)}\n`, "utf8");
  renameSync(tmp, file);
}

function permissionsOf(settings: Record<string, unknown>): Record<string, unknown> {
  const p = settings.permissions;
  if (p === undefined) return (settings.permissions = {});
  if (typeof p !== "object" || p === null || Array.isArray(p)) throw new Error("its permissions is not an object");
  return p as Record<string, unknown>;
}

/** Adds the rule to the file's `permissions[kind]` (once). */
export function addPermissionRule(file: string, kind: RuleKind, rule: string): void {
  const settings = readObject(file);
  const permissions = permissionsOf(settings);
  const list = Array.isArray(permissions[kind]) ? (permissions[kind] as unknown[]) : [];
  if (!list.includes(rule)) list.push(rule);
  permissions[kind] = list;
  writeObject(file, settings);
}

/** Takes the rule out of every list of the file's `permissions`; false when it was not there. */
export function removePermissionRule(file: string, rule: string): boolean {
  const settings = readObject(file);
  const permissions = permissionsOf(settings);
  let removed = false;
  for (const kind of ["allow", "ask", "deny"] as const) {
    const list = permissions[kind];
    if (!Array.isArray(list) || !list.includes(rule)) continue;
    permissions[kind] = list.filter((r) => r !== rule);
    removed = true;
  }
  if (removed) writeObject(file, settings);
  return removed;
}
