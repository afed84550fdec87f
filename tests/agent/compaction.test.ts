import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  applySummary,
  estimateTokens,
  planCompaction,
  snipToolOutputs,
  summaryAllowance,
  summaryPrompt,
  truncationSuspected,
} from "../../src/agent/compaction/index.js";
import type { ConversationMessage } from "../../src/protocol/conversation.js";

const user = (content: string): ConversationMessage => ({ role: "user", content });
const answer = (content: string): ConversationMessage => ({ role: "assistant", content });
const callMsg = (id: string, path: string): ConversationMessage => ({
  role: "assistant",
  content: "",
  toolCalls: [{ id, name: "read_file", args: { path } }],
});
const result = (id: string, content: string): ConversationMessage => ({
  role: "tool",
  content,
  toolCallId: id,
  toolName: "read_file",
});

/** user, then `steps` read_file calls each answered with `size` chars, then an answer. */
function turn(n: number, steps: number, size: number): ConversationMessage[] {
  const out: ConversationMessage[] = [user(`request ${n}`)];
  for (let s = 0; s < steps; s++) {
    out.push(callMsg(`c${n}_${s}`, `f${s}.ts`), result(`c${n}_${s}`, `${n}/${s}:`.padEnd(size, "x")));
  }
  out.push(answer(`done ${n}`));
  return out;
}

/** Every tool result sits right after its call (or another result of the same call message). */
function orphans(messages: readonly ConversationMessage[]): string[] {
  const out: string[] = [];
  messages.forEach((m, i) => {
    if (m.role !== "tool") return;
    let j = i - 1;
    while (j >= 0 && messages[j]!.role === "tool") j--;
    const owner = messages[j];
    if (!owner?.toolCalls?.some((c) => c.id === m.toolCallId)) out.push(m.toolCallId ?? "?");
  });
  return out;
}

describe("estimateTokens", () => {
  it("counts characters / 4 plus 4 per message, tool calls as JSON", () => {
    expect(estimateTokens([user("x".repeat(40))])).toBe(14);
    expect(estimateTokens([callMsg("1", "a")])).toBe(
      4 + Math.ceil('[{"name":"read_file","args":{"path":"a"}}]'.length / 4),
    );
  });
});

describe("snipToolOutputs", () => {
  const big = "H".repeat(1000) + "M".repeat(3000) + "T".repeat(500);
  const conv = [
    user("go"),
    callMsg("1", "a"),
    result("1", big),
    callMsg("2", "b"),
    result("2", big),
    ...turn(9, 3, 10),
  ];

  it("cuts older tool results over 2,000 chars to head + marker + tail", () => {
    const out = snipToolOutputs(conv);
    expect(out[2]!.content).toBe(`${"H".repeat(1000)}\n[... 3000 chars snipped ...]\n${"T".repeat(500)}`);
    expect(out[2]!.toolCallId).toBe("1");
  });

  it("keeps the last 6 messages whole", () => {
    const conv2 = [
      ...conv.slice(0, 3),
      callMsg("3", "c"),
      result("3", big),
      answer("a"),
      user("b"),
      answer("c"),
      user("d"),
    ];
    const out = snipToolOutputs(conv2);
    expect(out.slice(-6)).toEqual(conv2.slice(-6));
    expect(out[4]!.content).toBe(big);
    expect(out[2]!.content).not.toBe(big);
  });

  it("leaves short results and other roles alone", () => {
    const conv3 = [user("u".repeat(5000)), callMsg("1", "a"), result("1", "short"), ...turn(2, 3, 10)];
    expect(snipToolOutputs(conv3)).toEqual(conv3);
  });
});

describe("planCompaction", () => {
  it("does nothing below the threshold", () => {
    expect(planCompaction(turn(1, 3, 100), { contextWindow: 8192 })).toEqual({ action: "none" });
  });

  it("counts overhead outside the messages toward the threshold", () => {
    const conv = Array.from({ length: 6 }, (_, i) => turn(i, 2, 1500)).flat();
    expect(planCompaction(conv, { contextWindow: 8192 })).toEqual({ action: "none" });
    const plan = planCompaction(conv, { contextWindow: 8192, systemTokens: 2500 });
    expect(plan.action).toBe("summarize");
    if (plan.action !== "summarize") return;
    // The tail leaves room for the overhead and the summary under half the window.
    expect(2500 + estimateTokens(plan.tail) + summaryAllowance(8192)).toBeLessThanOrEqual(8192 * 0.5);
  });

  it("snips first when that is enough", () => {
    const conv = [...turn(1, 4, 8000), ...turn(2, 2, 10)];
    const plan = planCompaction(conv, { contextWindow: 8192 });
    expect(plan.action).toBe("snip");
    if (plan.action !== "snip") return;
    expect(plan.after).toBeLessThanOrEqual(8192 * 0.5);
    expect(plan.after).toBeLessThan(plan.before);
  });

  it("summarizes the older part when snipping is not enough, keeping the last user message", () => {
    const conv = [
      { role: "system", content: "sys" } as const,
      ...Array.from({ length: 12 }, (_, i) => turn(i, 2, 1500)).flat(),
    ];
    const plan = planCompaction(conv, { contextWindow: 8192 });
    expect(plan.action).toBe("summarize");
    if (plan.action !== "summarize") return;
    expect(plan.system).toEqual({ role: "system", content: "sys" });
    expect(plan.tail).toContainEqual(user("request 11"));
    expect(orphans(plan.tail)).toEqual([]);
    expect(orphans(plan.head)).toEqual([]);
    expect(estimateTokens(plan.tail)).toBeLessThanOrEqual(8192 * 0.3 + 1000);
    const rebuilt = applySummary(plan.system, "They read files.", plan.tail);
    expect(estimateTokens(rebuilt)).toBeLessThan(8192 * 0.5);
  });

  it("keeps the last user message when the current request alone is over the budget", () => {
    const conv = [...turn(0, 1, 100), user("fix the parser"), ...turn(1, 14, 1900).slice(1, -1)];
    const plan = planCompaction(conv, { contextWindow: 8192 });
    expect(plan.action).toBe("summarize");
    if (plan.action !== "summarize") return;
    expect(plan.tail[0]).toEqual(user("fix the parser"));
    expect(plan.tail[1]!.role).toBe("assistant");
    expect(orphans(plan.tail.slice(1))).toEqual([]);
    expect(plan.head).not.toContainEqual(user("fix the parser"));
  });

  it("never separates a tool result from its call, and always keeps the last user message", () => {
    const turnArb = fc.record({
      steps: fc.integer({ min: 0, max: 5 }),
      size: fc.integer({ min: 10, max: 6000 }),
      calls: fc.integer({ min: 1, max: 3 }),
    });
    // The cases that reach the asserts are counted: a generator that stopped making summaries
    // (or a plan that stopped summarizing) would otherwise pass by checking nothing.
    let summarized = 0;
    fc.assert(
      fc.property(
        fc.array(turnArb, { minLength: 1, maxLength: 12 }),
        fc.boolean(),
        fc.integer({ min: 2048, max: 16384 }),
        (turns, endsWithUser, window) => {
          const conv: ConversationMessage[] = [];
          turns.forEach((t, n) => {
            conv.push(user(`request ${n}`));
            for (let s = 0; s < t.steps; s++) {
              const ids = Array.from({ length: t.calls }, (_, k) => `c${n}_${s}_${k}`);
              conv.push({
                role: "assistant",
                content: "",
                toolCalls: ids.map((id) => ({ id, name: "read_file", args: { path: id } })),
              });
              for (const id of ids) conv.push(result(id, "r".repeat(t.size)));
            }
            conv.push(answer(`done ${n}`));
          });
          if (endsWithUser) conv.push(user("and now?"));
          const plan = planCompaction(conv, { contextWindow: window, force: true });
          if (plan.action !== "summarize") return;
          summarized++;
          const lastUser = [...conv].reverse().find((m) => m.role === "user")!;
          expect(plan.tail).toContainEqual(lastUser);
          expect(plan.head).not.toContain(lastUser);
          expect(orphans(plan.head)).toEqual([]);
          expect(orphans(plan.tail.filter((m) => m !== lastUser))).toEqual([]);
          expect(plan.head.length + plan.tail.length).toBe(conv.length);
        },
      ),
      { numRuns: 200 },
    );
    expect(summarized).toBeGreaterThanOrEqual(100);
  });
});

describe("summaryPrompt and applySummary", () => {
  it("asks for a summary of the head as a transcript", () => {
    const [sys, req] = summaryPrompt([
      user("add a flag"),
      callMsg("1", "src/cli.ts"),
      result("1", "const x = 1;"),
      answer("Added."),
    ]);
    expect(sys!.role).toBe("system");
    expect(req!.role).toBe("user");
    expect(req!.content).toContain(
      '<conversation>\nUSER:\nadd a flag\n\nASSISTANT:\n-> read_file {"path":"src/cli.ts"}\n\nTOOL RESULT (read_file):\nconst x = 1;\n\nASSISTANT:\nAdded.\n</conversation>',
    );
  });

  it("leaves out the oldest messages after the first when over its size", () => {
    const head = [
      user("original task"),
      ...Array.from({ length: 10 }, (_, i) => answer(`step ${i} `.padEnd(900, "."))),
      user("latest"),
    ];
    const content = summaryPrompt(head, { maxChars: 3000 })[1]!.content;
    expect(content).toContain("USER:\noriginal task\n\n[... 7 earlier messages left out ...]\n\nASSISTANT:\nstep 7");
    expect(content).toContain("USER:\nlatest");
  });

  it("puts the system message first, then the summary, then the tail", () => {
    const tail = [user("next"), answer("ok")];
    expect(applySummary("be brief", " They fixed the bug. ", tail)).toEqual([
      { role: "system", content: "be brief" },
      { role: "user", content: "Summary of the earlier conversation:\n\nThey fixed the bug." },
      ...tail,
    ]);
    expect(applySummary(undefined, "s", tail)[0]).toEqual({
      role: "user",
      content: "Summary of the earlier conversation:\n\ns",
    });
  });
});

describe("truncationSuspected", () => {
  it.each([
    [2051, 15750, true],
    [9000, 10000, false],
    [5999, 10000, true],
    [100, 900, false],
  ])("prompt_eval_count %i against an estimate of %i -> %s", (count, estimate, expected) => {
    expect(truncationSuspected(count, estimate)).toBe(expected);
  });
});
