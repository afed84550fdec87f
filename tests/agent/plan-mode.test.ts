import { afterEach, describe, expect, it } from "vitest";
import fs from "node:fs";
import path from "node:path";
import type { RunEvent } from "../../src/protocol/agent-event.js";
import type { PermissionMode } from "../../src/protocol/run-config.js";
import { runAgent } from "../../src/agent/loop.js";
import { createApprover, PLAN_MODE_REFUSAL } from "../../src/agent/approval.js";
import { toolsFor } from "../../src/tools/catalog.js";
import { scriptedProvider, type Reply } from "./scripted-provider.js";
import { tempProject, testConfig } from "../tools/ctx.js";

let cleanup = (): void => {};
afterEach(() => cleanup());

async function run(mode: PermissionMode, replies: Reply[], live?: (e: RunEvent) => PermissionMode | undefined) {
  const project = tempProject({ "a.txt": "alpha\n" });
  cleanup = project.cleanup;
  const provider = scriptedProvider(replies);
  const config = {
    ...testConfig(project.dir),
    systemPrompt: "You are agent0.",
    permissionMode: mode,
    interactive: true,
  };
  const asked: string[] = [];
  const events: RunEvent[] = [];
  let now = mode;
  const result = await runAgent([{ role: "user", content: "go" }], config, {
    provider,
    tools: toolsFor(config, undefined, []),
    emit: (e) => {
      events.push(e);
      now = live?.(e) ?? now;
    },
    permissionMode: live ? () => now : undefined,
    signal: new AbortController().signal,
    askUser: async (req) => {
      asked.push(req.tool);
      return { decision: "once" };
    },
  });
  return { result, provider, asked, dir: project.dir, config };
}

describe("plan mode", () => {
  it("refuses a change and a shell command without asking, and runs read-only tools", async () => {
    const { provider, asked, dir } = await run("plan", [
      {
        calls: [
          { id: "c1", name: "read_file", args: { path: "a.txt" } },
          { id: "c2", name: "create_file", args: { path: "new.txt", content: "x\n" } },
          { id: "c3", name: "run_shell_command", args: { command: "touch shell.txt" } },
          { id: "c4", name: "todo_write", args: { todos: [{ content: "look", status: "in_progress" }] } },
        ],
      },
      { text: "1. Create new.txt" },
    ]);
    expect(asked).toEqual([]);
    expect(fs.existsSync(path.join(dir, "new.txt"))).toBe(false);
    expect(fs.existsSync(path.join(dir, "shell.txt"))).toBe(false);
    const results = provider.requests[1]!.messages.filter((m) => m.role === "tool");
    expect(results.map((m) => [m.toolName, m.content === PLAN_MODE_REFUSAL])).toEqual([
      ["read_file", false],
      ["create_file", true],
      ["run_shell_command", true],
      ["todo_write", false],
    ]);
    expect(results[0]!.content).toContain("alpha");
    // A message after the user's says so; the system prompt stays as it was (the prompt cache holds).
    const first = provider.requests[0]!.messages;
    expect(first[0]!.content).toBe("You are agent0.");
    expect(first.at(-1)).toMatchObject({ role: "user", mode: "plan" });
    expect(first.at(-1)!.content).toContain("You are in plan mode");
  });

  // Edits and commands never reach the approver in plan mode: the call's mode stage refuses them (above).
  it("a read-only tool that needs a say (web_fetch, an MCP tool) asks as in ask mode", async () => {
    const project = tempProject({});
    cleanup = project.cleanup;
    const asked: string[] = [];
    const approve = createApprover(
      { ...testConfig(project.dir), permissionMode: "plan", interactive: true },
      async (req) => {
        asked.push(req.tool);
        return { decision: "once" };
      },
      () => {},
    );
    const ask = (tool: string, kind: "fetch" | "mcp", args: Record<string, unknown>) =>
      approve({ tool, kind, args, preview: tool });
    expect(await ask("web_fetch", "fetch", { url: "https://docs.example.com/" })).toEqual({ ok: true });
    expect(await ask("mcp__docs__search", "mcp", {})).toEqual({ ok: true });
    expect(asked).toEqual(["web_fetch", "mcp__docs__search"]);
  });

  it("in ask mode the same change goes to the user, and the prompt has no plan section", async () => {
    const { asked, dir, provider } = await run("ask", [
      { calls: [{ id: "c1", name: "create_file", args: { path: "new.txt", content: "x\n" } }] },
      { text: "done" },
    ]);
    expect(asked).toEqual(["create_file"]);
    expect(fs.readFileSync(path.join(dir, "new.txt"), "utf8")).toBe("x\n");
    expect(provider.requests[0]!.messages.map((m) => m.content).join("\n")).not.toContain("plan mode");
  });

  it("a mode changed during the run (Shift+Tab) applies from the next call and the next request", async () => {
    const { dir, asked, provider } = await run(
      "plan",
      [
        { calls: [{ id: "c1", name: "create_file", args: { path: "one.txt", content: "1\n" } }] },
        { calls: [{ id: "c2", name: "create_file", args: { path: "two.txt", content: "2\n" } }] },
        { text: "done" },
      ],
      (e) => (e.type === "tool-end" && e.id === "c1" ? "auto-edit" : undefined),
    );
    expect(fs.existsSync(path.join(dir, "one.txt"))).toBe(false);
    expect(fs.readFileSync(path.join(dir, "two.txt"), "utf8")).toBe("2\n");
    expect(asked).toEqual([]);
    // The mode change is a new trailing message: the second request extends the first byte for byte.
    const [one, two] = provider.requests.map((r) => r.messages);
    expect(JSON.stringify(two!.slice(0, one!.length))).toBe(JSON.stringify(one));
    expect(one!.at(-1)!.content).toContain("You are in plan mode");
    expect(two!.at(-1)).toMatchObject({ role: "user", mode: "auto-edit" });
    expect(two!.at(-1)!.content).toContain("Plan mode is off");
  });
});
