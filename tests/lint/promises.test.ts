import path from "node:path";
import { ESLint } from "eslint";
import ts from "typescript";
import { describe, expect, it } from "vitest";

// The type-aware promise rules of eslint.config.js, tried on files that break them: a promise
// nobody handles ends the process when it rejects (Node's default), so each must be rejected.
const CASES = path.join(import.meta.dirname, "cases");
const FILES = ["floating-promises.ts", "handled-promises.ts"].map((f) => path.join(CASES, f));

/**
 * The config's own rules and options, with the types of a program of the case files alone built
 * with the compiler options of the config's project: the case files import nothing, so their types
 * are the same, and the lint no longer builds all of src/ and tests/ first (most of the file's time).
 */
async function caseLinter(): Promise<ESLint> {
  const config = (await new ESLint({ ignore: false }).calculateConfigForFile(FILES[0]!)) as {
    languageOptions: { parserOptions: { project: string; tsconfigRootDir: string } };
  };
  const { project, tsconfigRootDir } = config.languageOptions.parserOptions;
  const parsed = ts.getParsedCommandLineOfConfigFile(
    path.resolve(tsconfigRootDir, project),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(ts.flattenDiagnosticMessageText(d.messageText, "\n"));
      },
    },
  );
  if (!parsed) throw new Error(`cannot read ${project}`);
  const program = ts.createProgram(FILES, parsed.options);
  return new ESLint({
    ignore: false,
    overrideConfig: { languageOptions: { parserOptions: { project: null, programs: [program] } } },
  });
}
const eslint = await caseLinter();

async function problems(file: string): Promise<string[]> {
  const [result] = await eslint.lintFiles([path.join(CASES, file)]);
  return (result?.messages ?? []).map((m) => `${m.line}: ${m.ruleId}`);
}

describe("promise rules", () => {
  it("reject a dropped promise, a voided one, one passed as a void callback, and awaiting a non-promise", async () => {
    expect(await problems("floating-promises.ts")).toEqual([
      "6: @typescript-eslint/no-floating-promises",
      "10: @typescript-eslint/no-floating-promises",
      "14: @typescript-eslint/no-misused-promises",
      "18: @typescript-eslint/await-thenable",
    ]);
  });

  it("accept the same promises caught, awaited or returned", async () => {
    expect(await problems("handled-promises.ts")).toEqual([]);
  });
});
