// What loads before the first frame: bin/agent0.js reads the command line (start/options.ts) and
// paints through start/boot.ts before main loads; when it cannot, start/main.ts paints through
// the same start/boot.ts. Heavy parsers have no place there: yaml and zod cost ~470 KB of code to parse and run
// before anything is on screen, and commander ~10 ms that the early frame does not wait for.
import { describe, expect, it } from "vitest";
import { reachedOf } from "./module-graph.js";

const EARLY = ["start/options.ts", "start/boot.ts"];
const HEAVY = ["yaml", "zod", "marked", "highlight.js", "blessed", "@modelcontextprotocol/sdk"];

describe("the first frame's module graph", () => {
  it("reaches no heavy parser or SDK, from bin's early paint or from main's", () => {
    expect(reachedOf(EARLY, HEAVY)).toEqual([]);
    expect(reachedOf(["start/main.ts", "start/boot.ts"], HEAVY)).toEqual([]);
  });

  it("never loads the image library at start: it comes with the first attached image (cli/image-fit.ts)", () => {
    expect(reachedOf(["start/main.ts", "start/boot.ts", "agent/worker.ts", "start/one-shot.ts"], ["sharp"])).toEqual(
      [],
    );
  });

  it("does not wait for commander before the early paint", () => {
    expect(reachedOf(EARLY, ["commander"])).toEqual([]);
  });
});
