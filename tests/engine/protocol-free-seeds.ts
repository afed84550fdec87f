// Issue 38, check 2, its other half: the same request and the same seeds as
// protocol-grammar-seeds.ts, without the grammar, give no reply that parses — the random model
// cannot write a call by itself, so the grammar is what makes every seed's reply one.
import { describe, expect, test } from "vitest";
import { parseJsonProtocolReply } from "../../src/agent/replies/json-protocol.js";
import { OFFERED, SEEDS, seedRange, seedsEngine } from "./protocol-seeds.js";

/** The files protocol-free-seeds-1…2.test.ts, half of the seeds each. */
export const FREE_PARTS = 2;

export function freeSeeds(part: number): void {
  const engine = seedsEngine();
  const { first, end } = seedRange(part, FREE_PARTS);
  describe("the same seeds without the JSON protocol's grammar", () => {
    test(`seeds ${first}–${end - 1} of ${SEEDS}: no reply parses`, async () => {
      const parsed: string[] = [];
      let written = 0;
      for (let seed = first; seed < end; seed++) {
        const text = await engine.reply(seed, false);
        if (text.trim()) written++;
        if (parseJsonProtocolReply(text, OFFERED).kind !== "invalid")
          parsed.push(`seed ${seed}: ${text.slice(0, 200)}`);
      }
      expect(parsed).toEqual([]);
      // The model wrote: an empty reply would not parse either, and would prove nothing.
      expect(written).toBeGreaterThan((end - first) / 2);
    }, 900_000);
  });
}
