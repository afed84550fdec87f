// A headless one-shot runs from V8's compiled code, kept in the user's cache folder
// (src/start/code-cache.ts): the first run writes it, later runs use it, and a cache that is damaged
// or cannot be written never changes what a run does.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { startFakeOllama, type FakeOllama } from "../fakes/ollama-server.js";
import { ROOT, eachTest, runHeadless, type Sandbox } from "./harness.js";

const MODEL = "qwen3:8b";

describe("the one-shot's code cache", () => {
  let sb: Sandbox;
  let fake: FakeOllama | undefined;
  eachTest(
    (s) => (sb = s),
    () => [fake],
  );

  /** A one-shot the fake answers with `text`. */
  const answer = async (text: string) => {
    fake = await startFakeOllama({ models: [{ name: MODEL }], replies: [{ steps: [{ text }] }] });
    const r = await runHeadless(sb, ["-p", "hi", "--host", fake.url, "--model", MODEL]);
    await fake.close();
    return r;
  };
  const caches = (dir: string) => (fs.existsSync(dir) ? fs.readdirSync(dir).filter((n) => n.endsWith(".bin")) : []);

  it("is written to ~/.cache/agent0/code by the first run, and nothing is written beside the app", async () => {
    const bundle = fs.readdirSync(path.join(ROOT, "dist", "bundle")).sort();
    const dir = path.join(sb.home, ".cache", "agent0", "code");
    expect(await answer("one")).toMatchObject({ code: 0, stdout: "one\n", stderr: "" });
    expect(caches(dir)).toEqual([expect.stringMatching(/^one-shot\.cjs-\w+\.bin$/)]);
    const written = fs.statSync(path.join(dir, caches(dir)[0]!)).mtimeMs;
    expect(await answer("two")).toMatchObject({ code: 0, stdout: "two\n", stderr: "" });
    // Used, not written again.
    expect(fs.statSync(path.join(dir, caches(dir)[0]!)).mtimeMs).toBe(written);
    expect(fs.readdirSync(sb.project)).toEqual([]);
    expect(fs.readdirSync(path.join(ROOT, "dist", "bundle")).sort()).toEqual(bundle);
  });

  it("goes to $XDG_CACHE_HOME when it is set", async () => {
    sb.env.XDG_CACHE_HOME = path.join(sb.home, "xdg-cache");
    expect(await answer("ok")).toMatchObject({ code: 0, stdout: "ok\n" });
    expect(caches(path.join(sb.home, "xdg-cache", "agent0", "code"))).toHaveLength(1);
    expect(fs.existsSync(path.join(sb.home, ".cache"))).toBe(false);
  });

  it("a damaged cache: the run answers all the same, and the cache is written again", async () => {
    const dir = path.join(sb.home, ".cache", "agent0", "code");
    await answer("first");
    const file = path.join(dir, caches(dir)[0]!);
    fs.writeFileSync(file, Buffer.alloc(4096, 0x41));
    expect(await answer("second")).toMatchObject({ code: 0, stdout: "second\n", stderr: "" });
    expect(fs.readFileSync(file).subarray(0, 16).equals(Buffer.alloc(16, 0x41))).toBe(false);
  });

  it("a cache folder that cannot be written: the run answers, and says nothing of it", async () => {
    fs.writeFileSync(path.join(sb.home, ".cache"), "a file where the folder would be");
    expect(await answer("still")).toMatchObject({ code: 0, stdout: "still\n", stderr: "" });
    expect(await answer("again")).toMatchObject({ code: 0, stdout: "again\n", stderr: "" });
  });
});
