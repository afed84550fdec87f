// What the four held-out sets share: the tools offered (every built-in, with its real schema),
// the calls the cases expect, and the shape of a case.
import type { ToolShape } from "../../../src/agent/replies/text-tool-calls.js";
import { builtinToolSchemas } from "../../../src/tools/builtin-schemas.js";

const SCHEMAS = builtinToolSchemas();
export const TOOLS: ToolShape[] = Object.entries(SCHEMAS).map(([name, parameters]) => ({ name, parameters }));

export type Call = { name: string; args: Record<string, unknown> };
export const READ: Call = { name: "read_file", args: { path: "src/a.ts" } };
export const READ_B: Call = { name: "read_file", args: { path: "src/b.ts" } };
export const GREP: Call = { name: "grep_files", args: { pattern: "TODO", path: "src" } };
export const LIST: Call = { name: "list_files", args: {} };
export const shell = (command: string): Call => ({ name: "run_shell_command", args: { command } });
export const read = (path: string, more: Record<string, unknown> = {}): Call => ({
  name: "read_file",
  args: { path, ...more },
});

export interface Case {
  what: string;
  source: string;
  text: string;
  calls: Call[];
  /** Still unread, and why it is left so. */
  left?: string;
}

export interface Negative {
  what: string;
  source: string;
  text: string;
  /** Still runs a call, and why it is left so. */
  left?: string;
}

export interface HeldOutSet {
  name: string;
  cases: Case[];
  negatives: Negative[];
}
