// What a headless one-shot loads: bin/agent0.js reads the command line (start/options.ts) and runs it
// through start/one-shot.ts (the agent, agent/serve.ts, and cli/headless.ts), or, when only commander
// can read the line, starts the agent (cli/agent-start.ts) and hands the run to start/main.ts. A plain one-shot needs
// no terminal UI, no markdown engine, no frontmatter parser and no MCP client: each loads only in
// the runs that use it.
import { describe, expect, it } from "vitest";
import { reachedOf } from "./module-graph.js";

const HEADLESS = [
  "start/options.ts",
  "start/one-shot.ts",
  "cli/agent-start.ts",
  "start/main.ts",
  "cli/headless.ts",
  "agent/serve.ts",
];
const NOT_FOR_A_ONE_SHOT = [
  "blessed",
  "marked",
  "highlight.js",
  "yaml",
  "@modelcontextprotocol/sdk",
  "@anthropic-ai/sdk",
  "openai",
  // The edit tools' syntax check requires it on the first edit of a file with a grammar.
  "web-tree-sitter",
  "tree-sitter-wasms",
];

describe("the headless one-shot's module graph", () => {
  it("reaches no terminal UI, markdown, yaml or SDK", () => {
    expect(reachedOf(HEADLESS, NOT_FOR_A_ONE_SHOT)).toEqual([]);
  });

  it("reaches none of the TUI's code but the few small modules main.ts itself imports", () => {
    // main.ts's own (the help's command list, giving the terminal back, bench marks, and the
    // process-wide state of the last two) are shared by every launch; nothing else in ui/ may come
    // along, through them or through the run.
    const mainsOwn = /^start\/main\.ts -> ui\/[^ ]+( -> ui\/runtime\/process-state\.ts)?$/;
    const beyondMain = reachedOf(HEADLESS, ["ui"]).filter((chain) => !mainsOwn.test(chain));
    expect(beyondMain).toEqual([]);
  });
});
