import path from "node:path";
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

// The type-aware promise rules of eslint.config.js, tried on files that break them: a promise
// nobody handles ends the process when it rejects (Node's default), so each must be rejected.
const eslint = new ESLint({ ignore: false });
const CASES = path.join(import.meta.dirname, "cases");
/** The first lint builds the TypeScript program of src/ and tests/: no time limit is asserted, this only lets it finish. */
const BUILDS_PROGRAM = 300_000;

async function problems(file: string): Promise<string[]> {
  const [result] = await eslint.lintFiles([path.join(CASES, file)]);
  return (result?.messages ?? []).map((m) => `${m.line}: ${m.ruleId}`);
}

describe("promise rules", () => {
  it(
    "reject a dropped promise, a voided one, one passed as a void callback, and awaiting a non-promise",
    async () => {
      expect(await problems("floating-promises.ts")).toEqual([
        "6: @typescript-eslint/no-floating-promises",
        "10: @typescript-eslint/no-floating-promises",
        "14: @typescript-eslint/no-misused-promises",
        "18: @typescript-eslint/await-thenable",
      ]);
    },
    BUILDS_PROGRAM,
  );

  it(
    "accept the same promises caught, awaited or returned",
    async () => {
      expect(await problems("handled-promises.ts")).toEqual([]);
    },
    BUILDS_PROGRAM,
  );
});
