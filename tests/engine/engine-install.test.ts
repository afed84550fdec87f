// `agent0 engine install` fetches this platform's build only (issue 41 §2): node-llama-cpp lists
// every platform's build as an optional dependency (732 MB of them), and the install leaves them
// all out but this one. Seen twice: the npm command line the installer runs (a recording npm on
// the PATH), and what the real install left in the engine folder the engine tests use.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { ENGINE_VERSION, installEngine, platformBuild, type GpuBuild } from "../../src/providers/embedded/engine.js";
import { ensureTestEngine } from "./engine-dir.js";

let dir: string;
let savedPath: string | undefined;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "agent0-engine-install-"));
  savedPath = process.env.PATH;
});
afterEach(() => {
  process.env.PATH = savedPath;
  fs.rmSync(dir, { recursive: true, force: true });
});

/**
 * An `npm` first on the PATH that writes its arguments, one a line, and makes the engine's entry
 * file under --prefix as a finished install would.
 */
function recordingNpm(): { engine: string; args: () => string[] } {
  const bin = path.join(dir, "bin");
  fs.mkdirSync(bin);
  const log = path.join(dir, "npm-args.txt");
  const script = [
    "#!/bin/sh",
    `printf '%s\\n' "$@" > '${log}'`,
    'while [ "$#" -gt 0 ]; do if [ "$1" = --prefix ]; then prefix="$2"; fi; shift; done',
    'mkdir -p "$prefix/node_modules/node-llama-cpp/dist" && touch "$prefix/node_modules/node-llama-cpp/dist/index.js"',
  ].join("\n");
  fs.writeFileSync(path.join(bin, "npm"), `${script}\n`, { mode: 0o755 });
  process.env.PATH = `${bin}${path.delimiter}${savedPath ?? ""}`;
  return { engine: path.join(dir, "engine"), args: () => fs.readFileSync(log, "utf8").trim().split("\n") };
}

const packagesIn = (args: string[]) => args.filter((a) => !a.startsWith("-") && a.includes("@") && a !== "install");

describe.skipIf(process.platform === "win32")("the install's npm command", () => {
  test("leaves out the optional builds and names node-llama-cpp and this platform's build, pinned", async () => {
    const npm = recordingNpm();
    expect(await installEngine(npm.engine)).toEqual({ ok: true });
    const args = npm.args();
    expect(args.slice(0, 3)).toEqual(["install", "--prefix", npm.engine]);
    expect(args).toContain("--omit=optional");
    expect(packagesIn(args)).toEqual([`node-llama-cpp@${ENGINE_VERSION}`, `${platformBuild()}@${ENGINE_VERSION}`]);
  });

  test("a GPU build found on the machine is named too, and nothing else", async () => {
    const npm = recordingNpm();
    const vulkan: GpuBuild = { kind: "vulkan", pkg: `${platformBuild()}-vulkan`, found: "/usr/lib/libvulkan.so.1" };
    await installEngine(npm.engine, () => {}, [vulkan]);
    expect(packagesIn(npm.args())).toEqual([
      `node-llama-cpp@${ENGINE_VERSION}`,
      `${platformBuild()}@${ENGINE_VERSION}`,
      `${platformBuild()}-vulkan@${ENGINE_VERSION}`,
    ]);
  });
});

describe("the real install", () => {
  test("holds one of node-llama-cpp's builds: this platform's", async () => {
    const engine = await ensureTestEngine();
    const scope = path.join(engine, "node_modules", "@node-llama-cpp");
    expect(fs.readdirSync(scope)).toEqual([platformBuild().replace("@node-llama-cpp/", "")]);
    const manifest = JSON.parse(fs.readFileSync(path.join(engine, "package.json"), "utf8")) as {
      dependencies: Record<string, string>;
    };
    expect(manifest.dependencies).toEqual({ "node-llama-cpp": ENGINE_VERSION, [platformBuild()]: ENGINE_VERSION });
  }, 240_000);
});
