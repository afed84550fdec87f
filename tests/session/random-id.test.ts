// Session ids are version 4 UUIDs (RFC 9562 section 5.4), read from the kernel's random source
// rather than node:crypto, whose loading a one-shot no longer pays (src/session/random-id.ts).
import { describe, expect, it } from "vitest";
import { randomId } from "../../src/session/random-id.js";

const V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe("randomId", () => {
  it("is a version 4, variant 10 UUID, different each time", () => {
    const ids = Array.from({ length: 2000 }, randomId);
    for (const id of ids) expect(id).toMatch(V4);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("uses all of its random bits: every hex digit outside the fixed ones shows up in every place", () => {
    const ids = Array.from({ length: 2000 }, randomId).map((id) => id.replace(/-/g, ""));
    for (const place of [0, 5, 11, 13, 17, 31]) {
      const seen = new Set(ids.map((id) => id[place]));
      expect(seen.size, `place ${place}`).toBe(16);
    }
  });
});
