// Issue 38, check 2, its other half: the same request and the same seeds as
// protocol-grammar-seeds.test.ts, without the grammar, give no reply that parses — the random model
// cannot write a call by itself, so the grammar is what makes every seed's reply one.
import { describe, expect, test } from "vitest";
import { parseJsonProtocolReply } from "../../src/agent/replies/json-protocol.js";
import { OFFERED, SEEDS, seedsEngine } from "./protocol-seeds.js";

const engine = seedsEngine();

describe("the same seeds without the JSON protocol's grammar", () => {
  test(`${SEEDS} of ${SEEDS} seeds: no reply parses`, async () => {
    const parsed: string[] = [];
    let written = 0;
    for (let seed = 0; seed < SEEDS; seed++) {
      const text = await engine.reply(seed, false);
      if (text.trim()) written++;
      if (parseJsonProtocolReply(text, OFFERED).kind !== "invalid") parsed.push(`seed ${seed}: ${text.slice(0, 200)}`);
    }
    expect(parsed).toEqual([]);
    // The model wrote: an empty reply would not parse either, and would prove nothing.
    expect(written).toBeGreaterThan(SEEDS / 2);
  }, 900_000);
});
