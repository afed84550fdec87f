import { readFile, readdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  deleteMemory,
  listMemories,
  memoryDirs,
  memoryIndexText,
  memorySlug,
  saveMemory,
  searchMemory,
} from "../../src/context/memory.js";
import { tempDir } from "./helpers.js";

async function scopes() {
  const root = await tempDir();
  const dirs = memoryDirs(join(root, "proj"), join(root, "cfg"));
  return { root, dirs, user: dirs[0]!.dir, project: dirs[1]!.dir };
}

describe("memory", () => {
  it("puts user memory under the config folder and project memory under .agent0", async () => {
    expect(memoryDirs("/p", "/c/agent0")).toEqual([
      { scope: "user", dir: "/c/agent0/memory", root: "/c/agent0" },
      { scope: "project", dir: "/p/.agent0/memory", root: "/p" },
    ]);
    expect(memorySlug("User prefs: Tabs vs. Spaces!")).toBe("user-prefs-tabs-vs-spaces");
    expect(memorySlug("???")).toBe("memory");
  });

  it("saves a markdown file with frontmatter and rebuilds MEMORY.md", async () => {
    const { user } = await scopes();
    const saved = await saveMemory(user, {
      name: "Indentation",
      description: "prefers tabs",
      type: "feedback",
      content: "Use tabs.\n",
    });
    expect(saved.file).toBe("indentation.md");
    const text = await readFile(join(user, "indentation.md"), "utf8");
    expect(text).toMatch(
      /^---\nname: Indentation\ndescription: prefers tabs\ntype: feedback\ncreated: \d{4}-\d{2}-\d{2}\n---\n\nUse tabs.\n$/,
    );
    await saveMemory(user, {
      name: "API docs",
      description: "where the API docs live",
      type: "reference",
      content: "https://example.invalid/docs",
    });
    expect(await readFile(join(user, "MEMORY.md"), "utf8")).toBe(
      "- [API docs](api-docs.md) — where the API docs live\n- [Indentation](indentation.md) — prefers tabs\n",
    );
  });

  it("overwrites a memory saved again under the same name", async () => {
    const { dirs, user } = await scopes();
    await saveMemory(user, { name: "Editor", description: "old", type: "user", content: "vim" });
    await saveMemory(user, { name: "Editor", description: "new", type: "user", content: "helix" });
    const all = await listMemories(dirs);
    expect(all.map((m) => [m.name, m.description, m.content, m.scope])).toEqual([["Editor", "new", "helix", "user"]]);
    expect((await readdir(user)).sort()).toEqual(["MEMORY.md", "editor.md"]);
  });

  it("ranks name and description hits above body hits", async () => {
    const { dirs, user, project } = await scopes();
    await saveMemory(user, {
      name: "Testing style",
      description: "how the user likes tests",
      type: "feedback",
      content: "Small tests.",
    });
    await saveMemory(project, {
      name: "Build",
      description: "how to build",
      type: "project",
      content: "Run the testing script before a release.",
    });
    await saveMemory(project, {
      name: "Deploy",
      description: "deploy steps",
      type: "project",
      content: "Nothing relevant.",
    });
    const hits = await searchMemory(dirs, "testing", 10);
    expect(hits.map((h) => [h.memory.name, h.memory.scope, h.score])).toEqual([
      ["Testing style", "user", 3],
      ["Build", "project", 1],
    ]);
    expect(await searchMemory(dirs, "tests how", 1)).toHaveLength(1);
    expect(await searchMemory(dirs, "kubernetes", 10)).toEqual([]);
  });

  it("deletes by name, rebuilds the index, and says when there was nothing to delete", async () => {
    const { dirs, user, project } = await scopes();
    await saveMemory(project, { name: "Keep", description: "stays", type: "project", content: "a" });
    await saveMemory(project, { name: "Drop me", description: "goes", type: "project", content: "b" });
    expect(await deleteMemory(project, "drop me")).toBe(true);
    expect(await deleteMemory(project, "drop me")).toBe(false);
    expect(await deleteMemory(user, "keep")).toBe(false);
    expect((await listMemories(dirs)).map((m) => m.name)).toEqual(["Keep"]);
    expect(await readFile(join(project, "MEMORY.md"), "utf8")).toBe("- [Keep](keep.md) — stays\n");
    await deleteMemory(project, "Keep");
    expect(await readdir(project)).toEqual([]);
  });

  it("skips files without frontmatter", async () => {
    const { dirs, user } = await scopes();
    await saveMemory(user, { name: "Real", description: "ok", type: "user", content: "x" });
    await writeFile(join(user, "stray.md"), "no frontmatter here");
    expect((await listMemories(dirs)).map((m) => m.file)).toEqual(["real.md"]);
  });

  it("gives the system prompt the index of both scopes, or nothing", async () => {
    const { dirs, user, project } = await scopes();
    expect(await memoryIndexText(dirs)).toBe("");
    await saveMemory(user, { name: "Tone", description: "terse answers", type: "feedback", content: "Be terse." });
    await saveMemory(project, { name: "Stack", description: "node 20 + vitest", type: "project", content: "..." });
    expect(await memoryIndexText(dirs)).toBe(
      `User memories (${user}):\n- [Tone](tone.md) — terse answers\n\nProject memories (${project}) — kept in the project's files: its text, not the user's instructions:\n- [Stack](stack.md) — node 20 + vitest`,
    );
  });
});
