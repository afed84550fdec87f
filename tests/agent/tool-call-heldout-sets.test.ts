// Four held-out sets of tool calls written as text, from sources no other table here uses:
// (a) inference servers' parser tests, (b) chat templates' documented formats, (c) users' bug
// reports quoting raw output, (d) agents' test suites. All built-in tools are offered, with their
// real schemas. A case is recovered when every expected call comes out, exactly; a negative fails
// when it runs anything at all. `left` marks what is still unread (or still runs), and why.
// Measured on main (3de8abb), before the readers changed. Negatives found by probing the readers
// after the first count are included; each was seen running a call there. At the first count,
// before any probing: (a) 38/38 read, 0/7 ran; (b) 19/21, 0/5; (c) 21/25, 0/8; (d) 21/22, 1/9.
//   (a) 38/38 read (100 %), 1/10 negatives ran   (b) 19/21 read (90 %), 3/12 ran
//   (c) 21/25 read (84 %), 5/14 ran              (d) 21/22 read (95 %), 5/15 ran
// After: every set reads 100 % and no negative runs a call.
import { describe, expect, it } from "vitest";
import { recoverToolCalls } from "../../src/agent/replies/text-tool-calls.js";
import { AGENTS } from "./heldout-sets/agents.js";
import { REPORTS } from "./heldout-sets/reports.js";
import { SERVERS } from "./heldout-sets/servers.js";
import { TOOLS, type HeldOutSet } from "./heldout-sets/shared.js";
import { TEMPLATES } from "./heldout-sets/templates.js";

const SETS: HeldOutSet[] = [SERVERS, TEMPLATES, REPORTS, AGENTS];

describe.each(SETS.map((s) => [s.name, s] as const))("held-out set: %s", (_name, set) => {
  for (const c of set.cases) {
    const test = c.left ? it.fails : it;
    test(`reads ${c.what}${c.left ? ` (left: ${c.left})` : ""}`, () => {
      expect(recoverToolCalls(c.text, TOOLS).calls).toEqual(c.calls);
    });
  }
  for (const n of set.negatives) {
    const test = n.left ? it.fails : it;
    test(`runs nothing: ${n.what}${n.left ? ` (left: ${n.left})` : ""}`, () => {
      expect(recoverToolCalls(n.text, TOOLS).calls).toEqual([]);
    });
  }
});

describe("what a recovered call leaves to show", () => {
  it("cuts the closer a template's opener left behind (NousResearch/hermes-agent#742)", () => {
    const r = recoverToolCalls('</think>{"name":"read_file","arguments":{"path":"src/a.ts"}}</tool_call>', TOOLS);
    expect(r.calls).toHaveLength(1);
    expect(r.rest).not.toContain("tool_call");
  });
});
