import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { memoryIndexText, memoryDirs } from "../../src/context/memory.js";
import { memoryDeleteTool, memoryListTool, memorySaveTool, memorySearchTool } from "../../src/tools/memory.js";
import { skillsTool } from "../../src/tools/skills.js";
import { tempDir, toolContext, writeTree } from "./helpers.js";

async function setup() {
  const root = await tempDir();
  const cwd = join(root, "proj");
  const cfg = join(root, "cfg", "agent0");
  return { root, cwd, cfg, ctx: toolContext(cwd, cfg) };
}

describe("memory tools", () => {
  it("save, list, search and delete through ToolDef.run, never asking for approval", async () => {
    const { cwd, cfg, ctx } = await setup();
    let asked = 0;
    ctx.approve = async () => {
      asked++;
      return { ok: false, reason: "no" };
    };

    const saved = await memorySaveTool.run(
      { name: "Style", description: "prefers early returns", type: "feedback", content: "Early returns over nesting." },
      ctx,
    );
    expect(saved.content).toBe('Saved memory "Style" (user: style.md).');
    const proj = await memorySaveTool.run(
      { name: "DB", description: "uses sqlite", type: "project", content: "SQLite in dev." },
      ctx,
    );
    expect(proj.content).toBe('Saved memory "DB" (project: db.md).');
    expect(memorySaveTool.readOnly).toBe(false);

    expect((await memoryListTool.run({}, ctx)).content).toBe(
      "- Style (feedback; user: style.md) — prefers early returns\n- DB (project; project: db.md) — uses sqlite",
    );
    expect((await memorySearchTool.run({ query: "sqlite" }, ctx)).content).toBe(
      "## DB (project; project: db.md; score 3)\nuses sqlite\n\nSQLite in dev.",
    );
    expect(await memoryIndexText(memoryDirs(cwd, cfg))).toContain("- [Style](style.md) — prefers early returns");

    expect((await memoryDeleteTool.run({ name: "Style" }, ctx)).content).toBe('Deleted memory "Style" (user).');
    const again = await memoryDeleteTool.run({ name: "Style" }, ctx);
    expect(again).toEqual({ content: 'Error: no memory named "Style"; memory_list shows the names.', isError: true });
    expect((await memorySearchTool.run({ query: "returns" }, ctx)).content).toBe('No memory matches "returns".');
    expect(asked).toBe(0);
  });

  it("rejects bad arguments through the schema", () => {
    expect(
      memorySaveTool.schema.safeParse({ name: "x", description: "d", type: "opinion", content: "c" }).success,
    ).toBe(false);
  });
});

describe("skills tool", () => {
  it("lists skills and loads one expanded, with its tool limit", async () => {
    const { root, ctx } = await setup();
    await writeTree(root, {
      "proj/.agent0/skills.md": "## /greet <who>\nSay hi to {who}.",
      "proj/.agent0/skills/ship/SKILL.md":
        "---\nname: ship\ndescription: Ship it\nallowed-tools: run_shell_command\n---\nShip $ARGUMENTS.",
    });
    const list = await skillsTool.run({ action: "list" }, ctx);
    expect(list.content).toContain("- /greet <who> — Say hi to {who}.");
    expect(list.content).toContain("- /ship — Ship it");
    expect(list.content).toContain("- /commit — ");

    const greet = await skillsTool.run({ action: "load", name: "greet", args: "Ada Lovelace" }, ctx);
    expect(greet.content).toBe(`Skill /greet (${join(root, "proj/.agent0/skills.md")}):\n\nSay hi to Ada Lovelace.`);
    const ship = await skillsTool.run({ action: "load", name: "/ship", args: "v2" }, ctx);
    expect(ship.content).toMatch(
      /\n\nShip v2\.\n\nWhile following this skill use only these tools: run_shell_command\.$/,
    );

    expect(await skillsTool.run({ action: "load", name: "greet" }, ctx)).toEqual({
      content: "Error: /greet needs <who>: usage /greet <who>",
      isError: true,
    });
    const unknown = await skillsTool.run({ action: "load", name: "nope" }, ctx);
    expect(unknown.isError).toBe(true);
    expect(unknown.content).toMatch(/^Error: no skill named "nope"\. Skills: .*greet/);
  });
});
