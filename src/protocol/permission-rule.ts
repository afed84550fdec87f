// Part of protocol/: plain data that crosses postMessage. A permission rule that lasts, as written
// (Claude Code's syntax, context/permission-rules.ts reads it), and where it came from.

export type RuleKind = "allow" | "ask" | "deny";

export interface PermissionRule {
  rule: string;
  kind: RuleKind;
  /** A settings file, `--allowedTools`, `--disallowedTools` or "session". */
  source: string;
}
