// src/cli/code-cache.ts, as bin/agent0.js uses it: each load is a process of its own, because the
// cache is written as the process exits. What V8 did with a cache is what the loader reports.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { readOwnCache } from "../../src/cli/code-cache.js";

const LOADER = pathToFileURL(path.resolve("dist/cli/code-cache.js")).href;

let dir: string;
let main: string;
let cache: string;

beforeEach(() => {
  dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "agent0-code-cache-")));
  main = path.join(dir, "main.cjs");
  cache = path.join(dir, "cache");
  // A file beside it, loaded twice: evaluated once, like require.
  fs.writeFileSync(
    path.join(dir, "beside.cjs"),
    "globalThis.evaluated = (globalThis.evaluated ?? 0) + 1;\nexports.n = 41;\n",
  );
  fs.writeFileSync(
    main,
    [
      'const a = __agent0_load("beside.cjs");',
      'const b = __agent0_load("beside.cjs");',
      "exports.value = a.n + 1;",
      "exports.same = a === b && globalThis.evaluated === 1;",
      "exports.url = __agent0_url;",
      "exports.dir = __dirname;",
      'exports.required = typeof require("node:path").join;',
      "function unused() { return [1, 2, 3].map((x) => x * 2); }",
    ].join("\n"),
  );
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

/** One process that loads `main` through the cache in `cacheDir`, then exits. */
function load(cacheDir = cache): {
  state: string;
  value: number;
  same: boolean;
  url: string;
  dir: string;
  required: string;
} {
  const script = `import { loadCachedScript } from ${JSON.stringify(LOADER)};
const r = loadCachedScript(${JSON.stringify(main)}, ${JSON.stringify(cacheDir)});
process.stdout.write(JSON.stringify({ state: r.state, ...r.exports }));`;
  const out = execFileSync("node", ["--input-type=module", "-e", script], { encoding: "utf8" });
  return JSON.parse(out) as ReturnType<typeof load>;
}

const cacheFiles = () => (fs.existsSync(cache) ? fs.readdirSync(cache).sort() : []);
const cacheOf = (name: string) => cacheFiles().filter((n) => n.startsWith(`${name}-`));

describe("running a CommonJS file from V8's code cache", () => {
  it("compiles and writes the cache the first time, and uses it after", () => {
    const first = load();
    expect(first).toMatchObject({ state: "none", value: 42, same: true, required: "function" });
    expect(first.url).toBe(pathToFileURL(main).href);
    expect(first.dir).toBe(dir);
    // The file beside it has its own cache.
    expect(cacheOf("main.cjs")).toHaveLength(1);
    expect(cacheOf("beside.cjs")).toHaveLength(1);
    expect(load()).toMatchObject({ state: "hit", value: 42, same: true });
  });

  it("a changed file gets a cache of its own, not the old one's code", () => {
    load();
    fs.appendFileSync(main, "\nexports.value = 7;\n");
    expect(load()).toMatchObject({ state: "none", value: 7 });
    expect(load()).toMatchObject({ state: "hit", value: 7 });
  });

  it("two builds of one length and one file time each get their own cache (npm gives every file one time)", () => {
    const build = (value: number, id: string) => `exports.value = ${value};\n// agent0-build ${id.repeat(32)}\n`;
    fs.writeFileSync(main, build(1, "a"));
    fs.utimesSync(main, 499_162_500, 499_162_500);
    expect(load()).toMatchObject({ state: "none", value: 1 });
    expect(load()).toMatchObject({ state: "hit", value: 1 });
    fs.writeFileSync(main, build(2, "b"));
    fs.utimesSync(main, 499_162_500, 499_162_500);
    expect(load()).toMatchObject({ state: "none", value: 2 });
  });

  it("a damaged cache is refused, the file still runs, and the cache is written again", () => {
    load();
    const [file] = cacheOf("main.cjs");
    const damaged = Buffer.alloc(fs.statSync(path.join(cache, file!)).size, 0x5a);
    fs.writeFileSync(path.join(cache, file!), damaged);
    expect(load()).toMatchObject({ state: "rejected", value: 42 });
    expect(fs.readFileSync(path.join(cache, file!)).equals(damaged)).toBe(false);
    expect(load()).toMatchObject({ state: "hit", value: 42 });
  });

  /**
   * The attack: another user plants, under the name the loader will look for, the cache of a
   * script of their own with main.cjs's length (V8 checks nothing else), so that their code runs
   * as the user. The canary: `value` 666 instead of 42.
   */
  function plantForeignCache(): string {
    load();
    const [file] = cacheOf("main.cjs");
    const cachePath = path.join(cache, file!);
    const length = fs.readFileSync(main, "latin1").length;
    const evil = path.join(dir, "evil.cjs");
    fs.writeFileSync(evil, "exports.value = 666;".padEnd(length - 1, " ") + "\n");
    const script = `import fs from "node:fs"; import vm from "node:vm"; import { WRAPPER } from ${JSON.stringify(LOADER)};
const s = new vm.Script(WRAPPER[0] + fs.readFileSync(${JSON.stringify(evil)}, "latin1") + WRAPPER[1], { filename: ${JSON.stringify(main)} });
fs.writeFileSync(${JSON.stringify(cachePath)}, s.createCachedData());`;
    execFileSync("node", ["--input-type=module", "-e", script]);
    return cachePath;
  }

  it("attack: a planted cache that group or others may write is not run (canary)", () => {
    const cachePath = plantForeignCache();
    fs.chmodSync(cachePath, 0o666);
    expect(load()).toMatchObject({ state: "none", value: 42 });
    // Written again as the user's own, and used from then on.
    expect(fs.statSync(cachePath).mode & 0o777).toBe(0o600);
    expect(load()).toMatchObject({ state: "hit", value: 42 });
  });

  it("attack: a cache name linked to another file of the user's is not followed", () => {
    const cachePath = plantForeignCache();
    const elsewhere = path.join(dir, "downloaded.bin");
    fs.renameSync(cachePath, elsewhere);
    fs.chmodSync(elsewhere, 0o600);
    fs.symlinkSync(elsewhere, cachePath);
    expect(load()).toMatchObject({ state: "none", value: 42 });
    expect(fs.lstatSync(cachePath).isSymbolicLink()).toBe(false);
  });

  // Any user can run this one: the loader's owner check is asked about a planted cache as if
  // another user were reading it (the file's owner is then not the reader).
  it("attack: a planted cache is read only by the user who owns it", () => {
    const cachePath = plantForeignCache();
    fs.chmodSync(cachePath, 0o600);
    const me = fs.statSync(cachePath).uid;
    expect(readOwnCache(cachePath, me)?.length).toBe(fs.statSync(cachePath).size);
    expect(readOwnCache(cachePath, me + 1)).toBeUndefined();
  });

  // Only root can give a file to another user.
  it.runIf(process.getuid?.() === 0)("attack: a planted cache another user owns is not run (canary)", () => {
    const cachePath = plantForeignCache();
    fs.chmodSync(cachePath, 0o600);
    fs.chownSync(cachePath, 65534, 65534);
    expect(load()).toMatchObject({ state: "none", value: 42 });
    expect(fs.statSync(cachePath).uid).toBe(0);
  });

  it("a cache folder that cannot be made costs only the parse", () => {
    const blocked = path.join(dir, "not-a-folder");
    fs.writeFileSync(blocked, "a file where the folder would be");
    expect(load(path.join(blocked, "code"))).toMatchObject({ state: "none", value: 42 });
    expect(load(path.join(blocked, "code"))).toMatchObject({ state: "none", value: 42 });
    expect(fs.readFileSync(blocked, "utf8")).toBe("a file where the folder would be");
  });

  it("keeps the newest four caches of a file and removes older builds'", () => {
    fs.mkdirSync(cache);
    for (let i = 0; i < 6; i++) {
      const old = path.join(cache, `main.cjs-old${i}.bin`);
      fs.writeFileSync(old, "old");
      fs.utimesSync(old, 1_000_000 + i, 1_000_000 + i);
    }
    fs.writeFileSync(path.join(cache, "other.cjs-old.bin"), "another file's");
    load();
    const kept = cacheOf("main.cjs");
    expect(kept).toHaveLength(4);
    expect(kept).toEqual(expect.arrayContaining(["main.cjs-old5.bin", "main.cjs-old4.bin", "main.cjs-old3.bin"]));
    expect(cacheFiles()).toContain("other.cjs-old.bin");
  });
});
