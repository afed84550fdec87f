// Attack: a symlinked folder inside the project that points outside it. The search and listing
// tools must not descend through it, whatever the pattern names; the canary is a file outside.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { makeCtx, project } from "./ctx.js";
import { callTool } from "./call.js";
import { grep, formatGrep, type GrepEngine } from "../../src/tools/files/search.js";

const CANARY = "CANARY-7f3a";

function setup(): string {
  const base = project({
    "proj/src/a.txt": "inside\n",
    "outside/canary-secret.txt": `${CANARY}\n`,
    "outside/deep/more.txt": `${CANARY}\n`,
  });
  const dir = path.join(base, "proj");
  fs.symlinkSync(path.join(base, "outside"), path.join(dir, "link"));
  return dir;
}

describe("symlinked folders that leave the project", () => {
  // Each pattern with what it must find inside the project: a tool that errors, or finds nothing at
  // all, fails here too (the positive half), not only one that reaches through the link.
  it.each([
    { pattern: "link/**/*.txt", inside: [] },
    { pattern: "link/*", inside: [] },
    { pattern: "**/*.txt", inside: ["src/a.txt"] },
    { pattern: "*/*.txt", inside: ["src/a.txt"] },
    { pattern: "*/deep/*", inside: [] },
  ])("glob_files $pattern finds nothing through them, and finds what is inside", async ({ pattern, inside }) => {
    const dir = setup();
    const r = await callTool(makeCtx(dir), "glob_files", { pattern });
    expect(r.isError).toBeFalsy();
    expect(r.content).not.toContain("canary");
    expect(r.content).not.toContain("more.txt");
    if (inside.length === 0) expect(r.content).toMatch(/^No files match/);
    else expect(r.content.split("\n")).toEqual(inside);
  });

  it.each(["rg", "js"] as GrepEngine[])("grep_files (%s) reads nothing through them", async (engine) => {
    const dir = setup();
    for (const glob of [undefined, "link/**", "**/*.txt", "*.txt"]) {
      const q = { root: dir, searchRel: ".", ignoreCase: false, pattern: CANARY, ...(glob ? { glob } : {}) };
      expect(formatGrep(await grep(q, engine), CANARY, ".").content).not.toContain(CANARY + "\n");
      const viaTool = await callTool(makeCtx(dir), "grep_files", { pattern: CANARY, ...(glob ? { glob } : {}) });
      expect(viaTool.content).toMatch(/^No matches/);
    }
  });

  it("list_files shows the link but does not enter it, and refuses to list it", async () => {
    const dir = setup();
    const r = await callTool(makeCtx(dir), "list_files", { depth: 5 });
    expect(r.content).not.toContain("canary");
    expect((await callTool(makeCtx(dir), "list_files", { path: "link" })).isError).toBe(true);
  });
});
