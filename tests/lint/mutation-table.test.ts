// The mutation table (tests/mutations/table.json, run by scripts/mutations.mjs) is kept with the
// code: each row's `find` must still be the rule's text, once, in its file, or the row would prove
// nothing the next time someone runs it. A change to a guarded line fails here, naming the row to
// mend, instead of months later in a mutation run.
import fs from "node:fs";
import { describe, expect, it } from "vitest";

interface Row {
  id: string;
  rule: string;
  file: string;
  find: string;
  replace: string;
  test: string;
  build?: boolean;
}

const { rows } = JSON.parse(fs.readFileSync("tests/mutations/table.json", "utf8")) as { rows: Row[] };

describe("the mutation table", () => {
  it("has rows, each with its own id", () => {
    expect(rows.length).toBeGreaterThan(50);
    const ids = rows.map((r) => r.id);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
  });

  it("finds each row's text exactly once in its file, and each row changes it", () => {
    const stale = rows.flatMap((r) => {
      if (!fs.existsSync(r.file)) return [`${r.id}: ${r.file} does not exist`];
      const count = fs.readFileSync(r.file, "utf8").split(r.find).length - 1;
      if (count !== 1) return [`${r.id}: its find occurs ${count} times in ${r.file}: mend the row`];
      return r.replace === r.find ? [`${r.id}: replace is find`] : [];
    });
    expect(stale).toEqual([]);
  });

  it("names a test file that exists for each row", () => {
    expect(rows.filter((r) => !fs.existsSync(r.test) || !/\.test\.ts$/.test(r.test)).map((r) => r.id)).toEqual([]);
  });
});
