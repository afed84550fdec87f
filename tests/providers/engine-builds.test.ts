// Which of node-llama-cpp's builds `agent0 engine install` fetches: this platform's CPU build only,
// and a GPU build only where its driver is found — `nvidia-smi` on the PATH (CUDA), the Vulkan loader
// where the dynamic linker looks (libvulkan.so.1) — said with its size before anything is fetched.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import {
  ENGINE_VERSION,
  gpuBuilds,
  installedGpuBuilds,
  installEngine,
  platformBuild,
} from "../../src/providers/embedded/engine.js";
import { installPlan } from "../../src/cli/engine-install.js";

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "agent0-gpu-"));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

/** A machine's PATH holding only `programs` (each a script that exits 0). */
function pathWith(...programs: string[]): string {
  const bin = path.join(dir, "bin");
  fs.mkdirSync(bin, { recursive: true });
  for (const p of programs) fs.writeFileSync(path.join(bin, p), "#!/bin/sh\nexit 0\n", { mode: 0o755 });
  return bin;
}

function libDirWithVulkan(): string {
  const lib = path.join(dir, "lib");
  fs.mkdirSync(lib, { recursive: true });
  fs.writeFileSync(path.join(lib, "libvulkan.so.1"), "");
  return lib;
}

describe("the builds for this machine", () => {
  test("this machine's CPU build is the platform's own package (node-llama-cpp's optionalDependencies names)", () => {
    expect(platformBuild("linux", "x64")).toBe("@node-llama-cpp/linux-x64");
    expect(platformBuild("darwin", "arm64")).toBe("@node-llama-cpp/mac-arm64-metal");
    expect(platformBuild("win32", "x64")).toBe("@node-llama-cpp/win-x64");
  });

  test("no driver: no GPU build", () => {
    expect(gpuBuilds({ PATH: pathWith("ls") }, "linux", "x64").filter((b) => !b.found.startsWith("/usr"))).toEqual([]);
  });

  test("nvidia-smi on the PATH: the CUDA build, with its download size", () => {
    const bin = pathWith("nvidia-smi");
    const builds = gpuBuilds({ PATH: bin }, "linux", "x64").filter((b) => b.kind === "cuda");
    expect(builds).toEqual([
      {
        kind: "cuda",
        pkg: "@node-llama-cpp/linux-x64-cuda",
        downloadBytes: 142_850_036,
        found: path.join(bin, "nvidia-smi"),
      },
    ]);
  });

  test("the Vulkan loader where the linker looks: the Vulkan build", () => {
    const lib = libDirWithVulkan();
    const builds = gpuBuilds({ PATH: pathWith(), LD_LIBRARY_PATH: lib }, "linux", "x64");
    expect(builds).toContainEqual({
      kind: "vulkan",
      pkg: "@node-llama-cpp/linux-x64-vulkan",
      downloadBytes: 27_476_121,
      found: path.join(lib, "libvulkan.so.1"),
    });
  });

  test("a Mac (Metal is in its one build) and arm64 Linux get none", () => {
    const env = { PATH: pathWith("nvidia-smi"), LD_LIBRARY_PATH: libDirWithVulkan() };
    expect(gpuBuilds(env, "darwin", "arm64")).toEqual([]);
    expect(gpuBuilds(env, "linux", "arm64")).toEqual([]);
  });
});

describe("what the install says before it fetches", () => {
  test("each GPU build with its size and why; --cpu leaves them out and says so", () => {
    const env = { PATH: pathWith("nvidia-smi"), LD_LIBRARY_PATH: libDirWithVulkan() };
    const gpu = gpuBuilds(env, "linux", "x64");
    const plan = installPlan(gpu, false);
    expect(plan.builds.map((b) => b.pkg)).toEqual([
      "@node-llama-cpp/linux-x64-cuda",
      "@node-llama-cpp/linux-x64-vulkan",
    ]);
    expect(plan.lines[1]).toBe(
      `and the CUDA build @node-llama-cpp/linux-x64-cuda: 143 MB download, as ${path.join(dir, "bin", "nvidia-smi")} is here (--cpu leaves it out)`,
    );
    expect(plan.lines[2]).toContain("the Vulkan build @node-llama-cpp/linux-x64-vulkan: 27 MB download");
    const cpu = installPlan(gpu, true);
    expect(cpu.builds).toEqual([]);
    expect(cpu.lines[1]).toMatch(/^left out \(--cpu\): the CUDA build/);
  });

  test("the provider uses a GPU only when a GPU build is installed", () => {
    const scope = path.join(dir, "node_modules", "@node-llama-cpp");
    fs.mkdirSync(path.join(scope, "linux-x64"), { recursive: true });
    expect(installedGpuBuilds(dir)).toEqual([]);
    fs.mkdirSync(path.join(scope, "linux-x64-vulkan"));
    expect(installedGpuBuilds(dir)).toEqual(["linux-x64-vulkan"]);
  });
});

describe("what the install asks npm for", () => {
  // node-llama-cpp's package.json lists every platform's build as an optionalDependency (732 MB in all):
  // `npm install` without --omit=optional would bring them all. A stand-in `npm` on the PATH records
  // the arguments the real one would get; nothing is fetched.
  async function npmArgs(gpu: Parameters<typeof installEngine>[2]): Promise<string[]> {
    const bin = path.join(dir, "npm-bin");
    fs.mkdirSync(bin, { recursive: true });
    const record = path.join(dir, "npm-args");
    fs.writeFileSync(path.join(bin, "npm"), `#!/bin/sh\nprintf '%s\\n' "$@" > '${record}'\n`, { mode: 0o755 });
    const saved = process.env.PATH;
    process.env.PATH = `${bin}${path.delimiter}${saved ?? ""}`;
    try {
      const r = await installEngine(path.join(dir, "engine"), () => {}, gpu);
      // The stand-in installs nothing, so the engine is not there afterwards: said, not claimed.
      expect(r.ok).toBe(false);
    } finally {
      process.env.PATH = saved;
    }
    return fs.readFileSync(record, "utf8").trim().split("\n");
  }

  test("the engine with optional dependencies left out and this platform's build named: no other platform's", async () => {
    const args = await npmArgs([]);
    expect(args).toContain("--omit=optional");
    const packages = args.filter((a) => !a.startsWith("-") && a.includes("@") && a !== "install");
    expect(packages).toEqual([`node-llama-cpp@${ENGINE_VERSION}`, `${platformBuild()}@${ENGINE_VERSION}`]);
  });

  test("a GPU build found for this machine is named too, and only it", async () => {
    const cuda = gpuBuilds({ PATH: pathWith("nvidia-smi") }, "linux", "x64").filter((b) => b.kind === "cuda");
    const args = await npmArgs(cuda);
    expect(args.filter((a) => a.startsWith("@node-llama-cpp/"))).toEqual([
      `${platformBuild()}@${ENGINE_VERSION}`,
      `@node-llama-cpp/linux-x64-cuda@${ENGINE_VERSION}`,
    ]);
  });
});
