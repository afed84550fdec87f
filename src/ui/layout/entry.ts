import { markdownReady, renderMarkdownCached } from "../../render/markdown.js";
import { renderDiff } from "../../render/diff.js";
import { sanitize, sanitizeLine } from "../../render/sanitize.js";
import { theme } from "../../render/theme.js";
import { truncateLine, wrapText } from "../../render/wrap.js";
import type { Entry } from "../model.js";
import { todoLine } from "./todos.js";
import { highlightMentions, shellEntryLines } from "./steer-entries.js";
import { toolOutputLines } from "./tool-output.js";

export interface EntryViewContext {
  width: number;
  now: number;
  thinkingOpen: boolean;
  toolOutputOpen: boolean;
  toolOutputLines: number;
  model: string;
}

interface Cached {
  key: string;
  lines: string[];
}

// Entries are immutable (immer), so an entry object's identity is its revision: a WeakMap
// keyed by it caches rendered lines until the entry changes or the width does.
// eslint-disable-next-line no-restricted-syntax -- a cache of a pure function: an immutable entry's lines
const cache = new WeakMap<Entry, Cached>();

export function entryLines(entry: Entry, ctx: EntryViewContext): string[] {
  // Running tools show a clock and the welcome shows the live model: both are cheap and uncached.
  if (
    (entry.kind === "tool" && entry.state === "running") ||
    (entry.kind === "shell" && entry.running) ||
    entry.kind === "welcome"
  )
    return renderEntry(entry, ctx);
  const key = `${ctx.width}|${ctx.thinkingOpen}|${ctx.toolOutputOpen}|${ctx.toolOutputLines}|${markdownReady()}`;
  const hit = cache.get(entry);
  if (hit && hit.key === key) return hit.lines;
  const lines = renderEntry(entry, ctx);
  cache.set(entry, { key, lines });
  return lines;
}

const indent = (depth: number) => "  ".repeat(depth);

function prefixed(first: string, rest: string, lines: string[]): string[] {
  return lines.map((l, i) => (i === 0 ? first : rest) + l);
}

function renderEntry(entry: Entry, ctx: EntryViewContext): string[] {
  const w = ctx.width;
  switch (entry.kind) {
    case "welcome":
      return [
        truncateLine(theme.heading("agent0") + theme.dim(" — a coding agent for local models"), w),
        truncateLine(
          `${theme.dim("model ")}${sanitizeLine(ctx.model) || "(choosing…)"}   ${theme.dim(sanitizeLine(entry.server))}`,
          w,
        ),
        truncateLine(`${theme.dim("folder")} ${sanitizeLine(entry.cwd)}`, w),
        ...wrapText(
          theme.dim(
            "Enter send · Alt+Enter/Ctrl+J newline · Esc stop · PgUp/PgDn scroll · Ctrl+T thinking · /help · Ctrl+D quit",
          ),
          w,
        ),
      ];
    case "user": {
      const lines = prefixed(
        theme.user("› "),
        "  ",
        wrapText(sanitize(entry.text), w - 2).map((l) => highlightMentions(l, theme.user)),
      );
      if (entry.note) lines.push(theme.dim(`  (${entry.note})`));
      return ["", ...lines];
    }
    case "assistant": {
      // concat, not push(...lines): an answer of ~120k lines would overflow the call stack.
      let out: string[] = [""];
      const thinking = entry.thinking.trim();
      if (thinking) {
        if (ctx.thinkingOpen) {
          out = out.concat(
            prefixed(
              theme.thinking("✻ "),
              "  ",
              wrapText(sanitize(thinking), w - 2).map((l) => theme.thinking(l)),
            ),
          );
        } else {
          const first =
            sanitize(thinking)
              .split("\n")
              .find((l) => l.trim()) ?? "";
          out.push(
            truncateLine(
              truncateLine(theme.thinking(`✻ ${first.trim()}`), Math.max(1, w - 22)) + theme.dim(" (Ctrl+T to expand)"),
              w,
            ),
          );
        }
      }
      if (entry.text) out = out.concat(renderMarkdownCached(entry.text, w, entry.id, entry.streaming));
      if (entry.interrupted) out.push(truncateLine(theme.warn("⏹ interrupted"), w));
      return out;
    }
    case "tool": {
      const icon = entry.state === "running" ? theme.tool("⚙") : entry.state === "ok" ? theme.ok("✓") : theme.err("✗");
      const elapsed =
        entry.state === "running" && entry.startedAt
          ? theme.dim(` ${Math.max(0, Math.floor((ctx.now - entry.startedAt) / 1000))}s`)
          : "";
      const summary = entry.summary ? theme.dim(` — ${sanitize(entry.summary).split("\n")[0]}`) : "";
      return [
        truncateLine(`${indent(entry.depth)}${icon} ${sanitizeLine(entry.label)}${elapsed}${summary}`, w),
        ...toolOutputLines(entry, { width: w, open: ctx.toolOutputOpen, maxLines: ctx.toolOutputLines }),
      ];
    }
    case "todos":
      return ["", ...entry.items.map((t) => todoLine(t, w, "  "))];
    case "shell":
      return shellEntryLines(entry, w);
    case "diff": {
      const pad = indent(entry.depth + 1);
      return renderDiff(sanitize(entry.unified), Math.max(10, w - pad.length)).map((l) => truncateLine(pad + l, w));
    }
    case "notice": {
      const icon =
        entry.level === "info" ? theme.dim("ℹ ") : entry.level === "warn" ? theme.warn("⚠ ") : theme.err("✗ ");
      const style = entry.level === "info" ? theme.dim : entry.level === "warn" ? theme.warn : theme.err;
      return prefixed(
        icon,
        "  ",
        wrapText(sanitize(entry.text), w - 2).map((l) => style(l)),
      );
    }
    case "error": {
      const lines = prefixed(
        theme.err("✗ "),
        "  ",
        wrapText(sanitize(entry.message), w - 2).map((l) => theme.err(l)),
      );
      if (entry.hint) lines.push(...wrapText(sanitize(entry.hint), w - 2).map((l) => "  " + theme.warn(l)));
      return lines;
    }
  }
}
