// agent0's tool calls as ACP shows them (agentclientprotocol.com/protocol/tool-calls): a kind the
// editor picks an icon by, a title, the files it touches (so the editor can follow along), and
// its content — the diff of every edit, what the shell printed. Pure: no I/O.
import path from "node:path";
import { parsePatch } from "diff";
import type * as acp from "@agentclientprotocol/sdk";
import type { ToolDisplay } from "../../protocol/conversation.js";

const KINDS: Record<string, acp.ToolKind> = {
  read_file: "read",
  read_mcp_resource: "read",
  list_files: "search",
  glob_files: "search",
  grep_files: "search",
  list_mcp_resources: "search",
  memory_search: "search",
  memory_list: "search",
  create_file: "edit",
  write_file: "edit",
  edit_file: "edit",
  multi_edit: "edit",
  apply_patch: "edit",
  memory_delete: "delete",
  run_shell_command: "execute",
  web_fetch: "fetch",
  web_search: "fetch",
  todo_write: "think",
  delegate: "think",
};

export function toolKind(name: string, args: Record<string, unknown> = {}): acp.ToolKind {
  // apply_patch that only deletes or moves a file says so.
  if (name === "apply_patch" && typeof args.patch === "string") {
    const ops = [...args.patch.matchAll(/^\*\*\* (Add|Update|Delete) File:/gm)].map((m) => m[1]);
    if (ops.length > 0 && ops.every((o) => o === "Delete")) return "delete";
    if (/^\*\*\* Move to:/m.test(args.patch) && !/^[+-]/m.test(args.patch)) return "move";
  }
  return KINDS[name] ?? "other";
}

const str = (v: unknown): string | undefined => (typeof v === "string" && v.length > 0 ? v : undefined);

/** The files a call names, absolute, with the line it starts at where the arguments say. */
export function toolLocations(name: string, args: Record<string, unknown>, cwd: string): acp.ToolCallLocation[] {
  const at = (p: string, line?: number): acp.ToolCallLocation => ({
    path: path.resolve(cwd, p),
    ...(line !== undefined ? { line } : {}),
  });
  if (name === "apply_patch" && typeof args.patch === "string") {
    return [...args.patch.matchAll(/^\*\*\* (?:Add|Update|Delete) File: (.+)$/gm)].map((m) => at(m[1]!.trim()));
  }
  const p = str(args.path);
  if (!p) return [];
  const offset = typeof args.offset === "number" ? args.offset : undefined;
  return [at(p, name === "read_file" ? (offset ?? 1) : undefined)];
}

/**
 * Each hunk of a unified diff (one file's, or apply_patch's several) as an ACP diff: the lines
 * before and after, at the file's absolute path. A new file has no old text.
 */
export function diffContent(unified: string, cwd: string): acp.ToolCallContent[] {
  const out: acp.ToolCallContent[] = [];
  let files;
  try {
    files = parsePatch(unified);
  } catch {
    return [];
  }
  for (const file of files) {
    const name = (file.newFileName && file.newFileName !== "/dev/null" ? file.newFileName : file.oldFileName) ?? "";
    if (!name) continue;
    const abs = path.resolve(cwd, name);
    const created = file.oldFileName === "/dev/null";
    for (const hunk of file.hunks) {
      const before: string[] = [];
      const after: string[] = [];
      for (const line of hunk.lines) {
        const body = line.slice(1);
        if (line.startsWith(" ")) {
          before.push(body);
          after.push(body);
        } else if (line.startsWith("-")) before.push(body);
        else if (line.startsWith("+")) after.push(body);
      }
      out.push({
        type: "diff",
        path: abs,
        oldText: created ? null : before.join("\n"),
        newText: after.join("\n"),
      });
    }
  }
  return out;
}

export const textContent = (text: string): acp.ToolCallContent => ({
  type: "content",
  content: { type: "text", text },
});

/** What a finished call shows: its diff, or its output (a fenced block for the shell). */
export function resultContent(display: ToolDisplay, cwd: string): acp.ToolCallContent[] {
  if (display.diff) {
    const diffs = diffContent(display.diff, cwd);
    if (diffs.length) return diffs;
  }
  const output = display.output ?? display.summary;
  if (!output) return [];
  if (!display.output) return [textContent(output)];
  // A fence longer than any run of backticks in the output, so the output cannot close it.
  const fence = "`".repeat(Math.max(3, ...[...output.matchAll(/`+/g)].map((m) => m[0].length + 1)));
  return [textContent(`${fence}\n${output}\n${fence}`)];
}

/** What an approval shows, whole: an edit's diff, a command, or the preview as written. */
export function previewContent(preview: string, cwd: string): acp.ToolCallContent[] {
  if (/^(---|\+\+\+|@@) /m.test(preview)) {
    const diffs = diffContent(preview, cwd);
    if (diffs.length) return diffs;
  }
  return [textContent(preview)];
}

/** todo_write's list as an ACP plan (the whole list each time, as the protocol wants). */
export function planOf(args: Record<string, unknown>): acp.PlanEntry[] | undefined {
  if (!Array.isArray(args.todos)) return undefined;
  const entries: acp.PlanEntry[] = [];
  for (const t of args.todos as unknown[]) {
    const item = t as { content?: unknown; status?: unknown };
    if (typeof item?.content !== "string") continue;
    const status = item.status === "completed" || item.status === "in_progress" ? item.status : "pending";
    entries.push({ content: item.content, status, priority: "medium" });
  }
  return entries;
}
