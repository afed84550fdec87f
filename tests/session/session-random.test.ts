import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listSessions, loadSession } from "../../src/session/writer.js";

let dir: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "agent0-session-random-"));
});
afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

const header = JSON.stringify({
  type: "session",
  version: 1,
  id: "r",
  created: "",
  cwd: "/",
  provider: "ollama",
  model: "m",
  title: "",
});

describe("loading random bytes", () => {
  it("returns a result, never throws, for any bytes", () => {
    const file = path.join(dir, "random.jsonl");
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 2000 }), (bytes) => {
        fs.writeFileSync(file, bytes);
        const result = loadSession(file);
        expect(typeof result.ok).toBe("boolean");
        expect(() => listSessions(dir)).not.toThrow();
      }),
      { numRuns: 300 },
    );
  });

  it("keeps a valid header's session loadable whatever lines follow", () => {
    const file = path.join(dir, "tail.jsonl");
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.string(), fc.json()), { maxLength: 20 }), (lines) => {
        fs.writeFileSync(file, [header, ...lines].join("\n"));
        const result = loadSession(file);
        expect(result.ok).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});
