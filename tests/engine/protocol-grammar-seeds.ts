// Issue 38, check 2, on the real engine (node-llama-cpp, CPU) with the tiny random-weights model of
// tests/fakes/tiny-gguf.ts: under the JSON protocol's grammar (agent0's own schema for the offered
// tools, mapped by toGbnfJsonSchema) 100 of 100 seeds give a reply that parses, names an offered
// tool or the final answer, and whose call runs. A random model is the hardest writer there is: only
// the grammar makes its output a call (protocol-free-seeds.ts: without it, the same seeds do not).
import { describe, expect, test } from "vitest";
import { parseJsonProtocolReply } from "../../src/agent/replies/json-protocol.js";
import { runToolCall } from "../../src/agent/tool-call.js";
import { makeCtx } from "../tools/ctx.js";
import { OFFERED, SEEDS, seedRange, seedsEngine, tools } from "./protocol-seeds.js";

/** The files protocol-grammar-seeds-1…4.test.ts, a quarter of the seeds each. */
export const GRAMMAR_PARTS = 4;

export function grammarSeeds(part: number): void {
  const engine = seedsEngine();
  const { first, end } = seedRange(part, GRAMMAR_PARTS);
  describe("the JSON protocol's grammar on the real engine", () => {
    test(`seeds ${first}–${end - 1} of ${SEEDS}: a reply that parses, names an offered tool or the answer, and runs`, async () => {
      const failures: string[] = [];
      const named = new Set<string>();
      for (let seed = first; seed < end; seed++) {
        const text = await engine.reply(seed, true);
        const read = parseJsonProtocolReply(text, OFFERED);
        if (read.kind === "invalid") {
          failures.push(`seed ${seed}: ${read.error}: ${text.slice(0, 200)}`);
          continue;
        }
        named.add(read.kind === "tool" ? read.name : "response");
        if (read.kind === "tool") {
          const ctx = makeCtx(engine.dir(), { deny: "not in this test" });
          const outcome = await runToolCall({ id: `c${seed}`, name: read.name, args: read.args }, tools, ctx);
          // It ran: its arguments passed the tool's own validation (a refused approval is a run too).
          if (/^Invalid arguments|unknown tool/.test(outcome.content))
            failures.push(`seed ${seed}: ${outcome.content} for ${text.slice(0, 200)}`);
        }
      }
      expect(failures).toEqual([]);
      expect(named.size).toBeGreaterThan(1);
    }, 900_000);
  });
}
