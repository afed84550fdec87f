// glob_files: ripgrep lists the files (its walk is parallel, and skips what .gitignore ignores as
// grep_files does) and picomatch keeps those the pattern matches, with fast-glob's semantics
// (`*.ts` is the searched folder's own, `**/*.ts` any depth). Only the first GLOB_MAX_SHOWN by
// name are kept; the rest are counted, within the search budget. Without ripgrep, fast-glob walks.
import { spawn } from "node:child_process";
import path from "node:path";
import { createRequire } from "node:module";
import * as z from "zod";
import { type ToolResult, defineTool } from "../types.js";
import { keepInside, shownPath, workspaceOf } from "./workspace.js";
import { ProjectIgnore } from "./gitignore.js";
import { resolveExisting } from "./checks.js";
import { RG_WALK_ARGS, bundledRgPath } from "./grep-engines.js";
import { PROGRESS_MS, SearchBudget, capNote, type StopReason } from "./search-budget.js";
import { lazily } from "../../context/lazily.js";
import { placeName } from "./search.js";

type Picomatch = typeof import("picomatch");
const nodeRequire = createRequire(import.meta.url);
const bundled = typeof require === "function";
/**
 * picomatch on the first glob, as render/lazy-width.ts loads string-width: its ~60 KB set up at
 * every start cost a one-shot that globs nothing ~2 ms.
 */
const picomatch = lazily(
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- lazy on purpose, see above
  () => (bundled ? require("picomatch") : nodeRequire("picomatch")) as Picomatch,
);

export const GLOB_MAX_SHOWN = 500;

interface Found {
  /** The first GLOB_MAX_SHOWN paths by name (relative to the project). */
  files: string[];
  found: number;
  stopped?: StopReason;
}

/** Keeps the `max` smallest strings of what it is given, sorting only now and then. */
class FirstByName {
  private items: string[] = [];
  constructor(private readonly max: number) {}
  add(item: string): void {
    this.items.push(item);
    if (this.items.length >= this.max * 4) this.trim();
  }
  take(): string[] {
    this.trim();
    return this.items;
  }
  private trim(): void {
    this.items.sort();
    this.items.length = Math.min(this.items.length, this.max);
  }
}

async function viaRipgrep(
  rg: string,
  dirAbs: string,
  prefix: string,
  pattern: string,
  signal: AbortSignal,
  budget: SearchBudget,
  keep: (rel: string) => boolean,
): Promise<Found | undefined> {
  const matches = picomatch()(pattern, { dot: true });
  // Not rg's --glob: a glob given to rg overrides .gitignore (an ignored file it names is listed).
  const args = ["--files", ...RG_WALK_ARGS];
  const first = new FirstByName(GLOB_MAX_SHOWN);
  let found = 0;
  let stopped = false;
  const code = await new Promise<number | null>((resolve) => {
    const child = spawn(rg, args, { cwd: dirAbs, stdio: ["ignore", "pipe", "ignore"], signal });
    let pending = "";
    child.stdout.setEncoding("utf8");
    const clock = setInterval(() => {
      if (!stopped && budget.over(found, GLOB_MAX_SHOWN)) {
        stopped = true;
        child.kill();
      }
    }, PROGRESS_MS);
    child.stdout.on("data", (chunk: string) => {
      if (stopped) return;
      const names = (pending + chunk).split("\0");
      pending = names.pop() ?? "";
      for (const name of names) {
        if (!matches(name)) continue;
        const rel = prefix + name;
        if (!keep(rel)) continue;
        found++;
        first.add(rel);
      }
      if (budget.over(found, GLOB_MAX_SHOWN)) {
        stopped = true;
        child.kill();
      }
    });
    child.on("error", () => (clearInterval(clock), resolve(null)));
    child.on("close", (c) => (clearInterval(clock), resolve(c)));
  });
  if (signal.aborted) throw new Error("interrupted by the user");
  if (!stopped && code !== 0 && code !== 1) return undefined; // rg could not run: fast-glob
  const out: Found = { files: first.take(), found };
  if (stopped && budget.stopped) out.stopped = budget.stopped;
  return out;
}

async function viaFastGlob(
  dirAbs: string,
  prefix: string,
  pattern: string,
  keep: (rel: string) => boolean,
): Promise<Found> {
  const { default: fg } = await import("fast-glob"); // loaded at the first glob without ripgrep
  const found = await fg(pattern, {
    cwd: dirAbs,
    dot: true,
    onlyFiles: true,
    followSymbolicLinks: false,
    ignore: ["**/.git/**", "**/node_modules/**"],
  });
  const files = found.map((f) => prefix + f).filter(keep);
  return { files: files.sort().slice(0, GLOB_MAX_SHOWN), found: files.length };
}

const globSchema = () =>
  z.object({
    pattern: z.string().min(1).describe('Glob for file paths, e.g. "**/*.ts" or "src/*.json". Use **/ for any depth.'),
    path: z.string().optional().describe("Folder to search from, relative to the project folder. Default: all of it."),
  });

export const globFilesTool = defineTool({
  name: "glob_files",
  description:
    "Find files whose path matches a glob pattern, relative to the searched folder; skips what .gitignore ignores. " +
    "Use it to find files by name.",
  schema: globSchema,
  readOnly: true,
  concurrentSafe: true,
  label: (args) => `glob ${args.pattern}${args.path ? ` in ${args.path}` : ""}`,
  async run(args, ctx): Promise<ToolResult> {
    const p = args.path ?? ".";
    const where = resolveExisting(workspaceOf(ctx), p);
    if (!where.ok) return where.result;
    if (!where.stat.isDirectory()) return { content: `Error: ${p} is a file, not a folder.`, isError: true };
    if (path.isAbsolute(args.pattern) || args.pattern.split("/").includes("..")) {
      return { content: 'Error: the pattern must be relative to the searched folder, without "..".', isError: true };
    }
    const root = where.root;
    const prefix = where.inRoot === "." ? "" : `${where.inRoot}/`;
    // rg applies the .gitignore files inside the searched folder; those above it are checked here.
    const ignore = new ProjectIgnore(root);
    const keep = prefix === "" ? () => true : (rel: string) => !ignore.ignores(rel, false);
    const rg = await bundledRgPath();
    const budget = new SearchBudget(ctx, "files");
    const r: Found =
      (rg && (await viaRipgrep(rg, where.abs, prefix, args.pattern, ctx.signal, budget, keep))) ||
      (await viaFastGlob(where.abs, prefix, args.pattern, keep));
    // A symlink that leads out of the project is never listed.
    const files = keepInside(root, r.files).map((f) => shownPath(where, f));
    if (files.length === 0 && r.found === 0) {
      return { content: `No files match "${args.pattern}" in ${placeName(where.rel)}.`, summary: "no files" };
    }
    const lines = [...files];
    const note = capNote(files.length, r.found, "file", r.stopped);
    if (note) lines.push(note);
    const count = r.stopped ? `${r.found}+` : `${r.found}`;
    return { content: lines.join("\n"), summary: `${count} ${r.found === 1 ? "file" : "files"}` };
  },
});
