import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { expectGolden } from "./golden.js";
import { view } from "../../src/ui/view/index.js";
import { newModel } from "./helpers.js";

// A golden frame that UPDATE_GOLDEN=1 rewrites passes whatever it holds, so a CI run that set it
// would pass any rendering: it is refused there, and the file is left as it was.
describe("UPDATE_GOLDEN", () => {
  it("is refused when CI is set, and the golden file is not touched", () => {
    const name = "narrow-40x16";
    const file = path.join(import.meta.dirname, "golden", `${name}.txt`);
    const before = fs.readFileSync(file, "utf8");
    const frame = view(newModel({ width: 40, height: 10 }));
    expect(() => expectGolden(name, frame, { UPDATE_GOLDEN: "1", CI: "true" })).toThrow(/refused where CI is set/);
    expect(fs.readFileSync(file, "utf8")).toBe(before);
  });
});
