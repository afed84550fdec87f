// The engine (node-llama-cpp) is not one of agent0's dependencies: it is installed on first use into
// agent0's data folder with this platform's build only, and loaded from there.
import { spawn } from "node:child_process";
import fs from "node:fs";
import { createRequire } from "node:module";
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

/** A GPU build of the engine, offered where its driver is found. */
export interface GpuBuild {
  kind: "cuda" | "vulkan";
  pkg: string;
  /** The package's download (its npm tarball), when known for this platform. */
  downloadBytes?: number;
  /** What was found that makes it worth its size. */
  found: string;
}

/** npm tarball sizes of node-llama-cpp 3.21.1's Linux x64 builds (the registry's Content-Length). */
const DOWNLOAD_BYTES: Record<string, number> = {
  "@node-llama-cpp/linux-x64": 10_582_760,
  "@node-llama-cpp/linux-x64-cuda": 142_850_036,
  "@node-llama-cpp/linux-x64-vulkan": 27_476_121,
};

/** Where a program is on $PATH, or undefined. */
function onPath(program: string, env: NodeJS.ProcessEnv): string | undefined {
  for (const dir of (env.PATH ?? "").split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, process.platform === "win32" ? `${program}.exe` : program);
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

/** The Vulkan loader (libvulkan.so.1 / vulkan-1.dll) where the dynamic linker would find it. */
function vulkanLoader(env: NodeJS.ProcessEnv, platform: NodeJS.Platform): string | undefined {
  const name = platform === "win32" ? "vulkan-1.dll" : "libvulkan.so.1";
  const dirs =
    platform === "win32"
      ? [path.join(env.SystemRoot ?? "C:\\Windows", "System32")]
      : [
          ...(env.LD_LIBRARY_PATH ?? "").split(":").filter(Boolean),
          `/usr/lib/${process.arch === "arm64" ? "aarch64" : "x86_64"}-linux-gnu`,
          "/usr/lib64",
          "/usr/lib",
          "/usr/local/lib",
        ];
  return dirs.map((d) => path.join(d, name)).find((f) => fs.existsSync(f));
}

/**
 * The GPU builds this machine can use: CUDA where `nvidia-smi` is on the PATH, Vulkan where its loader
 * is installed (node-llama-cpp's own prebuilt packages; Linux and Windows x64 only; a Mac's build has Metal).
 */
export function gpuBuilds(
  env: NodeJS.ProcessEnv = process.env,
  platform = process.platform,
  arch = process.arch,
): GpuBuild[] {
  if (arch !== "x64" || (platform !== "linux" && platform !== "win32")) return [];
  const base = platformBuild(platform, arch);
  const builds: GpuBuild[] = [];
  const smi = onPath("nvidia-smi", env);
  if (smi)
    builds.push({ kind: "cuda", pkg: `${base}-cuda`, downloadBytes: DOWNLOAD_BYTES[`${base}-cuda`], found: smi });
  const loader = vulkanLoader(env, platform);
  if (loader)
    builds.push({
      kind: "vulkan",
      pkg: `${base}-vulkan`,
      downloadBytes: DOWNLOAD_BYTES[`${base}-vulkan`],
      found: loader,
    });
  return builds;
}

/** The engine's builds installed in its folder (`@node-llama-cpp/<platform>[-gpu]`). */
export function installedBuilds(dir: string): string[] {
  const scope = path.join(dir, "node_modules", "@node-llama-cpp");
  try {
    return fs
      .readdirSync(scope)
      .filter((d) => !d.startsWith("."))
      .map((d) => `@node-llama-cpp/${d}`);
  } catch {
    return [];
  }
}

/** The builds installed in the engine's folder that use a GPU. */
export function installedGpuBuilds(dir: string): string[] {
  return installedBuilds(dir)
    .map((b) => b.slice("@node-llama-cpp/".length))
    .filter((d) => /-(cuda|vulkan|metal)/.test(d));
}

/** The installed engine's version (its package.json), or undefined. */
export function installedEngineVersion(dir: string): string | undefined {
  try {
    const pkg = path.join(dir, "node_modules", "node-llama-cpp", "package.json");
    const version = (JSON.parse(fs.readFileSync(pkg, "utf8")) as { version?: unknown }).version;
    return typeof version === "string" ? version : undefined;
  } catch {
    return undefined;
  }
}

/** The CPU build's download (for the size said before installing), when known. */
export function cpuBuildDownloadBytes(): number | undefined {
  return DOWNLOAD_BYTES[platformBuild()];
}

export interface InstallResult {
  ok: boolean;
  /** What went wrong and what to do, when not ok. */
  message?: string;
}

/**
 * `npm install` of the engine with optional dependencies left out (they are every platform's build,
 * 732 MB) and this platform's build named, so only it comes — and the GPU builds asked for.
 */
export function installEngine(
  dir: string,
  onLine: (line: string) => void = () => {},
  gpu: readonly GpuBuild[] = [],
): Promise<InstallResult> {
  fs.mkdirSync(dir, { recursive: true });
  const pkg = path.join(dir, "package.json");
  if (!fs.existsSync(pkg)) fs.writeFileSync(pkg, JSON.stringify({ name: "agent0-engine", private: true }) + "\n");
  const args = ["install", "--prefix", dir, "--omit=optional", "--no-audit", "--no-fund", "--save-exact"];
  args.push(`node-llama-cpp@${ENGINE_VERSION}`, `${platformBuild()}@${ENGINE_VERSION}`);
  for (const b of gpu) args.push(`${b.pkg}@${ENGINE_VERSION}`);
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

/**
 * Sampling and compute the user fixes: `$AGENT0_ENGINE_SEED` (the same reply again, as llama.cpp's
 * --seed), `$AGENT0_ENGINE_MAX_TOKENS` (a reply's bound, as its -n) and `$AGENT0_ENGINE_THREADS` (as its
 * -t). Not a number: not set.
 */
export function engineTuning(env: NodeJS.ProcessEnv = process.env): {
  seed?: number;
  maxTokens?: number;
  threads?: number;
} {
  const int = (v: string | undefined) => (v && /^\d+$/.test(v.trim()) ? Number(v) : undefined);
  const seed = int(env.AGENT0_ENGINE_SEED);
  const maxTokens = int(env.AGENT0_ENGINE_MAX_TOKENS);
  const threads = int(env.AGENT0_ENGINE_THREADS);
  return {
    ...(seed !== undefined && { seed }),
    ...(maxTokens !== undefined && maxTokens > 0 && { maxTokens }),
    ...(threads !== undefined && threads > 0 && { threads }),
  };
}

/**
 * The threads to compute with: llama.cpp's own default, the cores useful for math (`cpuMathCores`, its
 * cpu_get_num_math(): physical cores, a hybrid CPU's performance cores only — hyperthreads and
 * efficiency cores slow the matrix work down), never more than this process may use. Not
 * node-llama-cpp's default, which is at least 4: on 2 cores its threads wait on each other (the tiny
 * model made 1–2 tokens/s with it, against 200–960 with 1 thread, on a loaded 2-core machine).
 */
export function engineThreads(cpuMathCores: number, available = os.availableParallelism()): number {
  return Math.max(1, Math.min(cpuMathCores || available, available));
}

/**
 * The engine's one loader: a CommonJS file in the engine's folder whose `import()` node's own loader
 * runs. The engine's module graph has a top-level await, which only import() loads; the one-shot
 * bundle cannot call import() itself (it is CommonJS run through vm.Script from V8's code cache, where
 * import() has no loader — and the loader vm offers is experimental, warns the user on every run, and
 * is lost when the script comes from the cache).
 */
const LOADER = "agent0-import.cjs";
const LOADER_SOURCE =
  "// Written by agent0: loads the engine (an ES module) for agent0's CommonJS bundle.\nmodule.exports = (url) => import(url);\n";

function engineLoader(dir: string): (url: string) => Promise<unknown> {
  const file = path.join(dir, LOADER);
  if (!fs.existsSync(file) || fs.readFileSync(file, "utf8") !== LOADER_SOURCE) fs.writeFileSync(file, LOADER_SOURCE);
  return createRequire(path.join(dir, "package.json"))(file) as (url: string) => Promise<unknown>;
}

/** The engine's module, loaded from its folder (typed loosely: it is not a dependency at build time). */
export async function loadEngineModule(dir: string): Promise<EngineModule> {
  if (!engineInstalled(dir)) {
    throw Object.assign(new Error(`The engine is not installed. Run: agent0 engine install`), {
      kind: "model-not-found",
    });
  }
  return (await engineLoader(dir)(pathToFileURL(entryFile(dir)).href)) as EngineModule;
}

/* eslint-disable @typescript-eslint/no-explicit-any -- node-llama-cpp's types are not available at build time */
export interface EngineModule {
  getLlama(opts: Record<string, unknown>): Promise<any>;
  LlamaChat: new (opts: { contextSequence: any }) => any;
  readGgufFileInfo(path: string, opts?: Record<string, unknown>): Promise<any>;
}
/* eslint-enable @typescript-eslint/no-explicit-any */
