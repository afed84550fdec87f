// apply_patch resolves the patch's paths itself (issue 29, part 8): each way out of the project is
// tried with a canary outside — `../`, absolute paths, a symlinked folder, a hard link, a move
// target — and nothing outside is created, changed or deleted.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { makeCtx, project } from "./ctx.js";
import { runToolCall } from "../../src/agent/tool-call.js";
import { applyPatchTool } from "../../src/tools/files/apply-patch.js";

const CANARY = "outside, untouched\n";

/** `base/proj` (the project) beside `base/outside/victim.txt`, with `proj/link` a symlink to `outside`. */
function setup(): { dir: string; outside: string } {
  const base = project({ "proj/inside.txt": "in\n", "outside/victim.txt": CANARY });
  const dir = path.join(base, "proj");
  const outside = path.join(base, "outside");
  fs.symlinkSync(outside, path.join(dir, "link"));
  return { dir, outside };
}

const patchOf = (...body: string[]) => ["*** Begin Patch", ...body, "*** End Patch"].join("\n");
const outsideState = (outside: string) =>
  fs
    .readdirSync(outside)
    .sort()
    .map((f) => `${f}:${fs.readFileSync(path.join(outside, f), "utf8")}`);

describe("apply_patch stays inside the project", () => {
  const attacks: [string, (outside: string) => string][] = [
    ["adds ../", () => patchOf("*** Add File: ../outside/new.txt", "+planted")],
    ["adds an absolute path", (o) => patchOf(`*** Add File: ${o}/new.txt`, "+planted")],
    ["adds through a symlinked folder", () => patchOf("*** Add File: link/new.txt", "+planted")],
    ["updates ../", () => patchOf("*** Update File: ../outside/victim.txt", "@@", "-outside, untouched", "+changed")],
    [
      "updates an absolute path",
      (o) => patchOf(`*** Update File: ${o}/victim.txt`, "@@", "-outside, untouched", "+changed"),
    ],
    [
      "updates through a symlinked folder",
      () => patchOf("*** Update File: link/victim.txt", "@@", "-outside, untouched", "+changed"),
    ],
    ["deletes ../", () => patchOf("*** Delete File: ../outside/victim.txt")],
    ["deletes through a symlinked folder", () => patchOf("*** Delete File: link/victim.txt")],
    [
      "moves a project file out",
      () => patchOf("*** Update File: inside.txt", "*** Move to: ../outside/moved.txt", "@@", "-in", "+in"),
    ],
    [
      "moves an outside file in",
      () => patchOf("*** Update File: link/victim.txt", "*** Move to: stolen.txt", "@@", "-outside, untouched", "+x"),
    ],
  ];

  it.each(attacks)("%s: refused, nothing outside changes", async (_what, patch) => {
    const { dir, outside } = setup();
    const before = outsideState(outside);
    const ctx = makeCtx(dir);
    const r = await runToolCall(
      { id: "p1", name: "apply_patch", args: { patch: patch(outside) } },
      [applyPatchTool],
      ctx,
    );
    expect(r.isError).toBe(true);
    expect(outsideState(outside)).toEqual(before);
    expect(fs.existsSync(path.join(dir, "stolen.txt"))).toBe(false);
    expect(fs.readFileSync(path.join(dir, "inside.txt"), "utf8")).toBe("in\n");
  });

  it("a hard link to a file outside is not updated through", async () => {
    const { dir, outside } = setup();
    fs.linkSync(path.join(outside, "victim.txt"), path.join(dir, "hard.txt"));
    const patch = patchOf("*** Update File: hard.txt", "@@", "-outside, untouched", "+changed");
    const r = await runToolCall({ id: "p1", name: "apply_patch", args: { patch } }, [applyPatchTool], makeCtx(dir));
    expect(r.isError).toBe(true);
    expect(fs.readFileSync(path.join(outside, "victim.txt"), "utf8")).toBe(CANARY);
  });

  it("the same patch inside the project applies (the refusals above are about the paths)", async () => {
    const { dir } = setup();
    const patch = patchOf("*** Update File: inside.txt", "@@", "-in", "+changed", "*** Add File: sub/new.txt", "+made");
    const r = await runToolCall({ id: "p1", name: "apply_patch", args: { patch } }, [applyPatchTool], makeCtx(dir));
    expect(r.isError).toBeUndefined();
    expect(fs.readFileSync(path.join(dir, "inside.txt"), "utf8")).toBe("changed\n");
    expect(fs.readFileSync(path.join(dir, "sub", "new.txt"), "utf8")).toBe("made\n");
  });
});
