import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { checkpointDirFor, Checkpoints } from "../../src/session/checkpoints.js";

let root: string;
let project: string;
let store: string;
beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "agent0-checkpoint-"));
  project = path.join(root, "project");
  store = path.join(root, "sessions", "s1.checkpoints");
  fs.mkdirSync(project);
});
afterEach(() => {
  fs.rmSync(root, { recursive: true, force: true });
});

const file = (name: string) => path.join(project, name);

/** What a file tool does: record, write, note what it wrote. */
async function toolWrites(cp: Checkpoints, name: string, content: string | Buffer): Promise<void> {
  await cp.recordBefore(file(name));
  fs.mkdirSync(path.dirname(file(name)), { recursive: true });
  fs.writeFileSync(file(name), content);
  await cp.recordAfter(file(name));
}

describe("checkpoints and /undo", () => {
  it("lives beside the session file", () => {
    expect(checkpointDirFor("/data/sessions/abc.jsonl")).toBe("/data/sessions/abc.checkpoints");
  });

  it("never restores through a folder that became a link out of the project (issue 29, part 5)", async () => {
    // The turn edits src/config.txt; later the model (through the shell) swaps src for a link to a
    // folder of the user's. /undo --force must neither delete nor write the user's file.
    fs.mkdirSync(file("src"));
    fs.writeFileSync(file("src/config.txt"), "before\n");
    const cp = new Checkpoints(store);
    cp.beginTurn(1);
    await toolWrites(cp, "src/config.txt", "after\n");
    const outside = path.join(root, "users-folder");
    fs.mkdirSync(outside);
    fs.writeFileSync(path.join(outside, "config.txt"), "the user's own\n");
    fs.rmSync(file("src"), { recursive: true });
    fs.symlinkSync(outside, file("src"));
    const result = await cp.undo({ force: true });
    expect(fs.readFileSync(path.join(outside, "config.txt"), "utf8")).toBe("the user's own\n");
    expect(result?.restored).toEqual([]);
    expect(result?.conflicts).toEqual([file("src/config.txt")]);
  });

  it("removes a created file and restores an edited one byte for byte", async () => {
    const old = Buffer.from([0xff, 0x00, 0x0d, 0x0a, 0xe2, 0x82, 0xac, 0x20]);
    fs.writeFileSync(file("edited.bin"), old);
    fs.chmodSync(file("edited.bin"), 0o640);
    const cp = new Checkpoints(store);
    cp.beginTurn(4);
    await toolWrites(cp, "edited.bin", "new text");
    await toolWrites(cp, "edited.bin", "newer text"); // only the first write's "before" counts
    await toolWrites(cp, "src/created.ts", "export {};\n");

    const result = await cp.undo();
    expect(result).toEqual({
      turn: 4,
      applied: true,
      restored: [file("edited.bin")],
      removedCreated: [file("src/created.ts"), file("src") + path.sep],
      conflicts: [],
      ranShell: false,
    });
    expect(fs.readFileSync(file("edited.bin")).equals(old)).toBe(true);
    expect(fs.statSync(file("edited.bin")).mode & 0o777).toBe(0o640);
    expect(fs.existsSync(file("src/created.ts"))).toBe(false);
    // The folder the turn created for the new file went with it.
    expect(fs.readdirSync(project).sort()).toEqual(["edited.bin"]);
  });

  it("removes only the folders the turn created, and only when nothing else is left in them", async () => {
    fs.mkdirSync(file("lib"));
    const cp = new Checkpoints(store);
    cp.beginTurn(0);
    await toolWrites(cp, "lib/deep/er/a.ts", "a");
    await toolWrites(cp, "docs/guide/b.md", "b");
    // Someone else put a file in docs/ meanwhile: docs/ stays, docs/guide/ goes.
    fs.writeFileSync(file("docs/notes.txt"), "mine");
    const result = await cp.undo();
    expect(result?.removedCreated).toEqual([
      file("lib/deep/er/a.ts"),
      file("docs/guide/b.md"),
      file("lib/deep/er") + path.sep,
      file("lib/deep") + path.sep,
      file("docs/guide") + path.sep,
    ]);
    expect(fs.readdirSync(project).sort()).toEqual(["docs", "lib"]);
    expect(fs.readdirSync(file("docs"))).toEqual(["notes.txt"]);
    expect(fs.readdirSync(file("lib"))).toEqual([]);
  });

  it("brings back a file the turn deleted", async () => {
    fs.writeFileSync(file("gone.txt"), "keep me");
    const cp = new Checkpoints(store);
    cp.beginTurn(0);
    await cp.recordBefore(file("gone.txt"));
    fs.rmSync(file("gone.txt"));
    await cp.recordAfter(file("gone.txt"));
    expect((await cp.undo())?.restored).toEqual([file("gone.txt")]);
    expect(fs.readFileSync(file("gone.txt"), "utf8")).toBe("keep me");
  });

  it("does not overwrite a file changed outside agent0 since the turn, unless forced", async () => {
    fs.writeFileSync(file("a.txt"), "original");
    const cp = new Checkpoints(store);
    cp.beginTurn(2);
    await toolWrites(cp, "a.txt", "by agent0");
    await toolWrites(cp, "b.txt", "created by agent0");
    fs.writeFileSync(file("a.txt"), "the user's own edit");

    const refused = await cp.undo();
    expect(refused).toEqual({
      turn: 2,
      applied: false,
      restored: [],
      removedCreated: [],
      conflicts: [file("a.txt")],
      ranShell: false,
    });
    expect(fs.readFileSync(file("a.txt"), "utf8")).toBe("the user's own edit");
    expect(fs.readFileSync(file("b.txt"), "utf8")).toBe("created by agent0");
    expect(cp.lastTurn()?.turn).toBe(2);

    const forced = await cp.undo({ force: true });
    expect(forced).toMatchObject({
      applied: true,
      restored: [file("a.txt")],
      removedCreated: [file("b.txt")],
      conflicts: [file("a.txt")],
    });
    expect(fs.readFileSync(file("a.txt"), "utf8")).toBe("original");
  });

  it("walks back one turn per undo, across a restart", async () => {
    fs.writeFileSync(file("a.txt"), "v0");
    const first = new Checkpoints(store);
    first.beginTurn(0);
    await toolWrites(first, "a.txt", "v1");
    first.beginTurn(2);
    await toolWrites(first, "a.txt", "v2");
    first.markShell();
    await first.endTurn();

    const resumed = new Checkpoints(store); // e.g. agent0 was restarted with --resume
    expect(await resumed.undo()).toMatchObject({ turn: 2, applied: true, ranShell: true, restored: [file("a.txt")] });
    expect(fs.readFileSync(file("a.txt"), "utf8")).toBe("v1");
    expect(await resumed.undo()).toMatchObject({ turn: 0, applied: true, ranShell: false, restored: [file("a.txt")] });
    expect(fs.readFileSync(file("a.txt"), "utf8")).toBe("v0");
    expect(await resumed.undo()).toBeUndefined();
  });

  it("seals a turn when the next begins, so later outside edits are still caught without endTurn", async () => {
    fs.writeFileSync(file("a.txt"), "v0");
    const cp = new Checkpoints(store);
    cp.beginTurn(0);
    await cp.recordBefore(file("a.txt"));
    fs.writeFileSync(file("a.txt"), "v1"); // recordAfter never called
    cp.beginTurn(2);
    await cp.undo(); // turn 2: nothing changed
    fs.writeFileSync(file("a.txt"), "outside");
    expect(await cp.undo()).toMatchObject({ turn: 0, applied: false, conflicts: [file("a.txt")] });
  });

  it("undoes a turn with no file changes too, so the conversation can drop it", async () => {
    const cp = new Checkpoints(store);
    cp.beginTurn(0);
    expect(cp.lastTurn()).toEqual({ turn: 0, ranShell: false, files: [] });
    expect(await cp.undo()).toEqual({
      turn: 0,
      applied: true,
      restored: [],
      removedCreated: [],
      conflicts: [],
      ranShell: false,
    });
  });

  it("drops checkpoints of turns the conversation no longer has when a turn begins at their index", async () => {
    fs.writeFileSync(file("a.txt"), "v0");
    const cp = new Checkpoints(store);
    cp.beginTurn(0);
    await toolWrites(cp, "a.txt", "v1");
    cp.beginTurn(2);
    await toolWrites(cp, "a.txt", "v2");
    cp.beginTurn(2); // the turn at index 2 was cut away; a new one starts there
    expect(cp.lastTurn()).toEqual({ turn: 2, ranShell: false, files: [] });
    await cp.undo();
    // The dropped turn's write is still on disk and is not what turn 0 left: a conflict.
    expect(await cp.undo()).toMatchObject({ turn: 0, applied: false, conflicts: [file("a.txt")] });
    expect(fs.readFileSync(file("a.txt"), "utf8")).toBe("v2");
  });

  it("keeps nothing in the project folder", async () => {
    fs.writeFileSync(file("a.txt"), "v0");
    const cp = new Checkpoints(store);
    cp.beginTurn(0);
    await toolWrites(cp, "a.txt", "v1");
    expect(fs.readdirSync(project)).toEqual(["a.txt"]);
    expect(fs.readdirSync(store)).toEqual(["turn-0"]);
    cp.clear();
    expect(fs.existsSync(store)).toBe(false);
    expect(await cp.undo()).toBeUndefined();
  });
});
