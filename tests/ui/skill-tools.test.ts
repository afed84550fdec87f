// A command's allowed-tools (issue 29, part 7): the run it starts crosses the thread border as plain
// data (it crashed with "could not be cloned" and left the TUI on "thinking"), as a narrowing only.
import { describe, expect, it } from "vitest";
import { feed, key, newModel, testConfig, typeText } from "./helpers.js";
import type { Cmd } from "../../src/ui/msg.js";

const peek = {
  name: "peek",
  description: "Peek",
  params: [],
  template: "Peek at the files.",
  source: "/p/.claude/commands/peek.md",
  format: "command" as const,
  allowedTools: ["read_file", "run_shell_command"],
};

const runOf = (cmds: Cmd[]) => cmds.find((c) => c.type === "worker" && c.command.type === "run");

describe("a command with allowed-tools", () => {
  it("starts a run whose command can be posted to the worker", () => {
    const booted = feed(newModel(), {
      type: "boot-ready",
      config: testConfig(),
      sessionId: "s1",
      conversation: [],
      skills: [peek],
      warnings: [],
    }).model;
    const { cmds } = feed(booted, ...typeText("/peek"), key("enter"));
    const run = runOf(cmds);
    expect(run).toBeDefined();
    // postMessage clones: a draft left in the Cmd is revoked by then.
    const cloned = structuredClone(run) as Extract<Cmd, { type: "worker" }>;
    expect(cloned.command.type === "run" && cloned.command.config.toolFilter).toEqual([
      "read_file",
      "run_shell_command",
    ]);
  });
});
