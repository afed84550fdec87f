// The engine (node-llama-cpp) is not one of agent0's dependencies: it is installed on first use into
// agent0's data folder with this platform's build only, and loaded from there.
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";

/** The one version: newer releases' lock files are refused on the machines agent0 is built on. */
export const ENGINE_VERSION = "3.21.1";

/** `$AGENT0_ENGINE_DIR` (tests point it at a cache kept between runs), else `<data>/engine`. */
export function engineDir(dataDir: string, env: NodeJS.ProcessEnv = process.env): string {
  const dir = env.AGENT0_ENGINE_DIR;
  return dir && path.isAbsolute(dir) ? dir : path.join(dataDir, "engine");
}

function entryFile(dir: string): string {
  return path.join(dir, "node_modules", "node-llama-cpp", "dist", "index.js");
}

export function engineInstalled(dir: string): boolean {
  return fs.existsSync(entryFile(dir));
}

/** node-llama-cpp's prebuilt package for this platform (its optionalDependencies, one of them). */
export function platformBuild(platform = process.platform, arch = process.arch): string {
  const name = platform === "win32" ? "win" : platform === "darwin" ? "mac" : platform;
  const metal = platform === "darwin" && arch === "arm64" ? "-metal" : "";
  return `@node-llama-cpp/${name}-${arch}${metal}`;
}

export interface InstallResult {
  ok: boolean;
  /** What went wrong and what to do, when not ok. */
  message?: string;
}

/**
 * `npm install` of the engine with optional dependencies left out (they are every platform's build,
 * 732 MB) and this platform's build named, so only it comes.
 */
export function installEngine(dir: string, onLine: (line: string) => void = () => {}): Promise<InstallResult> {
  fs.mkdirSync(dir, { recursive: true });
  const pkg = path.join(dir, "package.json");
  if (!fs.existsSync(pkg)) fs.writeFileSync(pkg, JSON.stringify({ name: "agent0-engine", private: true }) + "\n");
  const args = ["install", "--prefix", dir, "--omit=optional", "--no-audit", "--no-fund", "--save-exact"];
  args.push(`node-llama-cpp@${ENGINE_VERSION}`, `${platformBuild()}@${ENGINE_VERSION}`);
  const npm = process.platform === "win32" ? "npm.cmd" : "npm";
  return new Promise((resolve) => {
    const child = spawn(npm, args, { stdio: ["ignore", "pipe", "pipe"] });
    let tail = "";
    const read = (b: Buffer) => {
      const text = b.toString();
      tail = (tail + text).slice(-2000);
      for (const line of text.split("\n")) if (line.trim()) onLine(line);
    };
    child.stdout.on("data", read);
    child.stderr.on("data", read);
    child.on("error", (err) => resolve({ ok: false, message: `Could not run npm: ${err.message}` }));
    child.on("close", (code) => {
      if (code === 0 && engineInstalled(dir)) return resolve({ ok: true });
      const offline = /ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ETIMEDOUT/.test(tail);
      resolve({
        ok: false,
        message: offline
          ? `The engine could not be downloaded (no network). Where a network is, run: agent0 engine install`
          : `npm install of the engine failed (exit ${code}):\n${tail.trim()}`,
      });
    });
  });
}

/** Bytes under a folder (what the install took). */
export function folderSize(dir: string): number {
  let total = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) total += fs.statSync(path.join(entry.parentPath, entry.name)).size;
  }
  return total;
}

/** The threads to compute with: the cores this process may use (the default was far slower on 2 cores). */
export function engineThreads(): number {
  return Math.max(1, Math.min(os.availableParallelism(), 8));
}

/**
 * A real `import()` the bundler leaves alone: the one-shot bundle is CommonJS, where esbuild turns
 * `import()` into `require()`, and the engine's module graph has a top-level await require() refuses.
 */
const importEsm = new Function("specifier", "return import(specifier)") as (specifier: string) => Promise<unknown>;

/** The engine's module, loaded from its folder (typed loosely: it is not a dependency at build time). */
export async function loadEngineModule(dir: string): Promise<EngineModule> {
  if (!engineInstalled(dir)) {
    throw Object.assign(new Error(`The engine is not installed. Run: agent0 engine install`), {
      kind: "model-not-found",
    });
  }
  const url = pathToFileURL(entryFile(dir)).href;
  try {
    return (await importEsm(url)) as EngineModule;
  } catch (err) {
    // A module runner that gives `new Function` no loader (vite's, under the tests): this module's own
    // import() is a real one there, as it is in every ES module build.
    if ((err as { code?: string }).code !== "ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING") throw err;
    return (await import(/* @vite-ignore */ url)) as EngineModule;
  }
}

/* eslint-disable @typescript-eslint/no-explicit-any -- node-llama-cpp's types are not available at build time */
export interface EngineModule {
  getLlama(opts: Record<string, unknown>): Promise<any>;
  LlamaChat: new (opts: { contextSequence: any }) => any;
  readGgufFileInfo(path: string, opts?: Record<string, unknown>): Promise<any>;
}
/* eslint-enable @typescript-eslint/no-explicit-any */
