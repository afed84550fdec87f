// Runs a CommonJS file of the bundle (dist/bundle/one-shot.cjs) from V8's compiled code, kept in
// the user's cache folder. Without it every launch parses the whole file again: for a one-shot
// that was ~21 ms of its ~130 ms. Node 22.1+ keeps such a cache for every module itself
// (bin/agent0.js turns it on); node 20 has no API for ES modules, but vm.Script takes a cache.
// The first run after an install or upgrade compiles and writes it; V8 checks its own version,
// flags and the source's length before using one, and refuses (then it is written again) else.
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import vm from "node:vm";
import { cacheDir } from "../context/dirs.js";

/** Caches kept for one file: a few node versions or installs used in turns each keep theirs. */
const KEEP = 4;

/** What happened to the cache: V8 used it, refused it, or there was none to use. */
export type CodeCacheState = "hit" | "rejected" | "none";

export interface CachedScript {
  /** The file's `module.exports`. */
  exports: Record<string, unknown>;
  state: CodeCacheState;
}

// node's own CommonJS wrapper, with the file's URL (the bundle's `import.meta.url`) and a loader
// for the files beside it (a vendor package's: scripts/one-shot-bundle.mjs).
export const WRAPPER = [
  "(function (exports, require, module, __filename, __dirname, __agent0_url, __agent0_load) {",
  "\n})",
] as const;

/** FNV-1a: a short, stable name for what makes one cache differ from another. */
function fnv(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return (h >>> 0).toString(36);
}

/** The last line the bundle writes into each file it loads this way: the hash of what is above it. */
const BUILD_LINE = /\n\/\/ agent0-build ([0-9a-f]{16,})\n?$/;

/**
 * The cache's file for `source` (the text of `file`): another build, another node, or other V8
 * flags each get their own, so that two installs or node versions never overwrite each other's
 * in turns. A build is told by the hash the bundle writes on the file's last line: V8 checks only
 * a source's length against a cache, and npm installs every version with the same file times.
 * A file without one (not from the bundle) is told by its size and time.
 */
function codeCacheFile(file: string, source: string, dir: string): string {
  const build = BUILD_LINE.exec(source.slice(-100))?.[1];
  const stat = build === undefined ? fs.statSync(file) : undefined;
  const key = [
    build ?? `${stat!.size}:${stat!.mtimeMs}`,
    process.version,
    process.arch,
    process.execArgv.join(" "),
    process.env.NODE_OPTIONS ?? "",
  ];
  return path.join(dir, `${path.basename(file)}-${fnv(key.join("\0"))}.bin`);
}

/**
 * Loads `file` (ASCII, as the bundle writes it: read as Latin-1, the fastest way to a V8 string)
 * and evaluates it. Without a usable cache, the cache is written when the process exits, with
 * what this run compiled. Problems with the cache folder never stop the run: they only cost the
 * parse.
 */
export function loadCachedScript(
  file: string,
  dir: string | undefined = path.join(cacheDir(), "code"),
  loaded = new Map<string, CachedScript>(),
): CachedScript {
  const source = fs.readFileSync(file, "latin1");
  const cacheFile = dir === undefined ? undefined : codeCacheFile(file, source, dir);
  const cachedData = cacheFile === undefined ? undefined : readOwnCache(cacheFile);
  const script = new vm.Script(WRAPPER[0] + source + WRAPPER[1], {
    filename: file,
    cachedData,
    // The engine (providers/embedded) is an ES module with top-level await: only import() loads it.
    importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  });
  const state: CodeCacheState = cachedData === undefined ? "none" : script.cachedDataRejected ? "rejected" : "hit";
  if (cacheFile && state !== "hit") process.once("exit", () => writeCodeCache(script, cacheFile));
  const module = { exports: {} as Record<string, unknown> };
  const result: CachedScript = { exports: module.exports, state };
  loaded.set(file, result);
  // As require does: each file evaluated once, its exports shared (also while it is evaluating).
  const load = (name: string) => {
    const beside = path.join(path.dirname(file), name);
    return (loaded.get(beside) ?? loadCachedScript(beside, dir, loaded)).exports;
  };
  const wrapper = script.runInThisContext() as (...args: unknown[]) => void;
  wrapper(module.exports, createRequire(file), module, file, path.dirname(file), pathToFileURL(file).href, load);
  result.exports = module.exports;
  return result;
}

/**
 * The cache file's bytes, when this user wrote it and nobody else can: V8 runs what a cache holds
 * without checking it, so a cache another user could have put there (an $XDG_CACHE_HOME in a
 * shared folder) is not used, and is written again. Undefined when there is none yet.
 */
function readOwnCache(cacheFile: string): Buffer | undefined {
  let fd: number | undefined;
  try {
    // Not through a link: its target could be any file of the user's with bytes another chose.
    fd = fs.openSync(cacheFile, fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0));
    const st = fs.fstatSync(fd);
    const uid = process.getuid?.();
    if (!st.isFile() || (uid !== undefined && st.uid !== uid) || (st.mode & 0o022) !== 0) return undefined;
    return fs.readFileSync(fd);
  } catch {
    return undefined; // none yet: this run makes it
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

/**
 * Writes the cache: a new file renamed into place, so a second process never reads half of one.
 * The file's caches beyond the newest few (older builds) are removed. Synchronous: it runs as
 * the process exits.
 */
function writeCodeCache(script: vm.Script, cacheFile: string): void {
  const dir = path.dirname(cacheFile);
  const tmp = `${cacheFile}.${process.pid}.tmp`;
  try {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    fs.writeFileSync(tmp, script.createCachedData(), { mode: 0o600 });
    fs.renameSync(tmp, cacheFile);
    const prefix = path.basename(cacheFile).replace(/-[^-]+\.bin$/, "-");
    const older = fs
      .readdirSync(dir)
      .filter((n) => n.startsWith(prefix) && n.endsWith(".bin"))
      .map((n) => ({ file: path.join(dir, n), at: fs.statSync(path.join(dir, n)).mtimeMs }))
      .sort((a, b) => b.at - a.at)
      .slice(KEEP);
    for (const { file } of older) fs.rmSync(file, { force: true });
  } catch {
    // A full disk or a read-only home: the next run parses again, nothing else changes.
    try {
      fs.rmSync(tmp, { force: true });
    } catch {
      // not ours to remove
    }
  }
}
