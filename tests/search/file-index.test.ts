import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { FileIndex } from "../../src/search/file-index.js";
import type { FileMatches } from "../../src/protocol/file-index.js";
import { tempProject } from "../tools/ctx.js";

const env = { ...process.env, GIT_CONFIG_GLOBAL: "/dev/null", GIT_CONFIG_NOSYSTEM: "1" };
const git = (cwd: string, ...args: string[]) => execFileSync("git", args, { cwd, env, stdio: "ignore" });

let cleanup = () => {};
afterEach(() => cleanup());

/** Asks `query` and waits for the index's answer to it once its listing is complete. */
async function ask(index: FileIndex, replies: FileMatches[], query: string, refresh = false): Promise<FileMatches> {
  replies.length = 0;
  index.request({ type: "query", query, limit: 100, refresh });
  await index.whenListed();
  for (let i = 0; i < 500; i++) {
    const done = replies.findLast((r) => r.query === query && !r.building);
    if (done) return done;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`no answer for ${query}`);
}

describe("the file index", () => {
  it("in a repository: tracked and untracked files, not ignored ones, folders marked", async () => {
    const p = tempProject({
      ".gitignore": "dist/\n*.log\n",
      "src/deep/file.ts": "x",
      "src/tracked.ts": "x",
      "dist/out.js": "x",
      "debug.log": "x",
    });
    cleanup = p.cleanup;
    git(p.dir, "init", "-q");
    git(p.dir, "add", ".gitignore", "src/tracked.ts");
    fs.writeFileSync(path.join(p.dir, "notes.md"), "untracked");
    const replies: FileMatches[] = [];
    const index = new FileIndex(p.dir, (r) => replies.push(r), {
      refreshAfterMs: 0,
      refreshTimesListing: 0,
      progressEveryMs: 10,
      firstAnswerMs: 40,
    });
    const all = await ask(index, replies, "");
    expect([...all.paths].sort()).toEqual([
      ".gitignore",
      "notes.md",
      "src/",
      "src/deep/",
      "src/deep/file.ts",
      "src/tracked.ts",
    ]);
    expect(all.total).toBe(6);
    const deep = await ask(index, replies, "defi");
    expect(deep.paths[0]).toBe("src/deep/file.ts");

    // A new `@` lists again: a file made since is found.
    fs.writeFileSync(path.join(p.dir, "src", "fresh.ts"), "x");
    await ask(index, replies, "fresh", true);
    await index.whenListed();
    expect((await ask(index, replies, "fresh")).paths).toEqual(["src/fresh.ts"]);
  });

  it("outside a repository: what ripgrep lists, .gitignore respected, node_modules skipped", async () => {
    const p = tempProject({
      ".gitignore": "build/\n",
      "a/b/c.txt": "x",
      "build/x.js": "x",
      "node_modules/pkg/index.js": "x",
    });
    cleanup = p.cleanup;
    const replies: FileMatches[] = [];
    const index = new FileIndex(p.dir, (r) => replies.push(r));
    expect([...(await ask(index, replies, "")).paths].sort()).toEqual([".gitignore", "a/", "a/b/", "a/b/c.txt"]);
  });
});
