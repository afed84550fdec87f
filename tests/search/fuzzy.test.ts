import { describe, expect, it } from "vitest";
import * as fc from "fast-check";
import { Scorer, byRank, makeQuery, scorePath } from "../../src/search/fuzzy.js";
import { FileMatcher, QUICK_ABOVE } from "../../src/search/file-match.js";
import { PathTable } from "../../src/search/path-table.js";

const scorer = new Scorer();
const score = (path: string, query: string) => scorePath(scorer, path, makeQuery(query));
/** The candidate that ranks first for `query`. */
const best = (candidates: string[], query: string) =>
  candidates
    .map((path) => ({ path, score: score(path, query) }))
    .filter((c): c is { path: string; score: number } => c.score !== null)
    .sort(byRank)[0]?.path;

function tableOf(paths: string[]): PathTable {
  const t = new PathTable();
  const enc = new TextEncoder();
  for (const p of paths) {
    const b = enc.encode(p);
    t.addFile(b, 0, b.length);
  }
  return t;
}

describe("fuzzy path scoring", () => {
  it("matches the query's characters in order, and nothing else", () => {
    expect(score("src/ui/update/input.ts", "upd/inp")).not.toBeNull();
    expect(score("src/ui/update/input.ts", "inpupd")).toBeNull();
    expect(score("README.md", "")).toBe(0);
  });

  it("smart case: a query with capitals matches exactly, one without matches either case (fzf's default)", () => {
    expect(score("src/FileIndex.ts", "fileindex")).not.toBeNull();
    expect(score("src/fileindex.ts", "FileIndex")).toBeNull();
    expect(score("src/FileIndex.ts", "FileIndex")).not.toBeNull();
  });

  // fzf's src/algo/algo.go, "Scoring criteria": "fuzzyfinder" vs "fuzzy-finder" on "ff".
  it("prefers characters at word boundaries (fzf: fuzzy-finder over fuzzyfinder for ff)", () => {
    expect(best(["fuzzyfinder", "fuzzy-finder"], "ff")).toBe("fuzzy-finder");
  });

  // atom/fuzzaldrin spec/filter-spec.coffee, "prefer match at word boundary (separator limit)"
  // and "(camelCase limit)".
  it("prefers a match after a separator or at a camelCase hump (fuzzaldrin's cases)", () => {
    expect(best(["0gruntfile0", "hello gruntfile0", "0gruntfile world"], "grunt")).toBe("hello gruntfile0");
    expect(best(["0gruntfile0", "helloGruntfile0", "0gruntfileWorld"], "grunt")).toBe("helloGruntfile0");
  });

  // VS Code's fuzzyScorer ranks a match in the file's name (its label) above one in its folders.
  it("prefers the basename, then contiguous runs, then the start of a segment", () => {
    expect(best(["index/src/foo.ts", "src/index.ts"], "index")).toBe("src/index.ts");
    expect(best(["m/o/d/7/a.ts", "lib/mod7/a.ts"], "mod7")).toBe("lib/mod7/a.ts");
    expect(best(["src/xmodel.ts", "src/model.ts"], "model")).toBe("src/model.ts");
  });

  // The issue's own report: `@pkg0512/src/mod7` + Tab found nothing in a 100,000-file repository.
  it("finds a deep path by its segments, ahead of its siblings' look-alikes", () => {
    const paths = ["pkg0512/src/mod7/file42.ts", "pkg0512/src/mod1/file7.ts", "pkg0051/src/mod2/file7.ts"];
    expect(best(paths, "pkg0512/src/mod7")).toBe("pkg0512/src/mod7/file42.ts");
    expect(best(paths, "mod7file42")).toBe("pkg0512/src/mod7/file42.ts");
  });

  it("scores a folder by its name without the trailing slash", () => {
    expect(score("src/deep/", "deep")).toBe(score("src/deep", "deep"));
  });
});

describe("the packed path table", () => {
  it("lists each folder once, also from an unsorted listing (ripgrep's)", () => {
    const t = tableOf(["b/x.ts", "a/b/c.ts", "b/y.ts", "a/d.ts", "a/b/e.ts"]);
    const all = Array.from({ length: t.count }, (_, i) => t.path(i));
    expect(all.sort()).toEqual(["a/", "a/b/", "a/b/c.ts", "a/b/e.ts", "a/d.ts", "b/", "b/x.ts", "b/y.ts"]);
  });

  it("joins a path that a stream cut between two chunks", () => {
    const t = new PathTable();
    const bytes = new TextEncoder().encode("src/a.ts\0src/longer-name.ts\0");
    let rest = t.addNulSeparated(bytes.subarray(0, 15));
    expect(t.count).toBe(2);
    rest = t.addNulSeparated(new Uint8Array([...rest, ...bytes.subarray(15)]));
    expect(rest.length).toBe(0);
    expect([t.path(0), t.path(1), t.path(2)]).toEqual(["src/", "src/a.ts", "src/longer-name.ts"]);
  });

  it("keeps non-ASCII names whole", () => {
    const t = tableOf(["docs/überblick.md"]);
    expect(t.path(1)).toBe("docs/überblick.md");
  });
});

describe("ranking a table", () => {
  it("has no cap that hides files: every match is counted, the best come first", async () => {
    const paths = Array.from({ length: 30_000 }, (_, i) => `pkg${i % 300}/src/mod${i % 10}/file${i}.ts`);
    const r = (await new FileMatcher().match(tableOf(paths), "file29999", 5))!;
    expect(r.top[0]!.path).toBe("pkg299/src/mod9/file29999.ts");
    const table = tableOf(paths);
    const all = (await new FileMatcher().match(table, "mod7", 10))!;
    const everyOne = Array.from({ length: table.count }, (_, i) => table.path(i)).filter(
      (p) => score(p, "mod7") !== null,
    );
    expect(all.total).toBe(everyOne.length);
    expect(all.total).toBeGreaterThan(3000);
    expect(all.top).toHaveLength(10);
  });

  it("over very many paths, the linear pass picks the candidates and the full scorer ranks them", async () => {
    const paths = Array.from({ length: QUICK_ABOVE + 80_000 }, (_, i) => `pkg${i % 1000}/src/mod${i % 10}/file${i}.ts`);
    const table = tableOf(paths);
    // Past one 4 MB block: paths in the second are found and read back whole.
    expect(table.blocks.length).toBeGreaterThan(1);
    expect(table.path(table.count - 1)).toBe(paths.at(-1));
    const late = (await new FileMatcher().match(table, "file179999", 1))!;
    expect(late.top[0]!.path).toBe(paths.at(-1));
    const r = (await new FileMatcher().match(table, "mod7file1007", 5))!;
    expect(r.top[0]!.path).toBe("pkg7/src/mod7/file1007.ts");
    // The scores are the full scorer's, so the menu's re-ranking agrees with the index's order.
    expect(r.top.map((t) => t.score)).toEqual(r.top.map((t) => score(t.path, "mod7file1007")));
  });

  it("narrowing on the last query's matches gives what a full pass gives", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.stringMatching(/^[a-c/]{1,8}$/), { minLength: 1, maxLength: 40 }),
        fc.stringMatching(/^[a-c/]{0,3}$/),
        fc.stringMatching(/^[a-c/]{1,3}$/),
        async (paths, first, more) => {
          const table = tableOf(paths.map((p) => p.replace(/\/+$/, "").replace(/^\/+/, "") || "x"));
          const typing = new FileMatcher();
          await typing.match(table, first, 1000);
          const narrowed = (await typing.match(table, first + more, 1000))!;
          const full = (await new FileMatcher().match(table, first + more, 1000))!;
          expect(narrowed.top).toEqual(full.top);
          expect(narrowed.total).toBe(full.total);
        },
      ),
    );
  });

  it("stops a pass when a newer query is waiting", async () => {
    const table = tableOf(Array.from({ length: 100_000 }, (_, i) => `a/file${i}.ts`));
    expect(await new FileMatcher().match(table, "file", 10, () => Promise.resolve(false))).toBeNull();
  });
});

describe("the work a pass does (counted, not timed)", () => {
  /** `folders` folders of `per` files each, as git lists them (sorted, so a folder's files are together). */
  const tree = (folders: number, per: number) =>
    Array.from({ length: folders * per }, (_, i) => `pkg${Math.floor(i / per)}/src/file${i % per}.ts`);

  it("a query that extends the last one searches only what the last one matched (fzf's cache)", async () => {
    const table = tableOf(tree(50, 100));
    const matcher = new FileMatcher();
    const first = (await matcher.match(table, "file7", 10))!;
    expect(matcher.work.candidates).toBe(table.count);
    await matcher.match(table, "file77", 10);
    expect(matcher.work.candidates).toBe(first.total);
    // Not an extension: the whole table again.
    await matcher.match(table, "src", 10);
    expect(matcher.work.candidates).toBe(table.count);
  });

  it("a path without one of the query's characters is skipped unread (its character mask)", async () => {
    const table = tableOf([...tree(10, 10), "docs/zebra.md"]);
    const matcher = new FileMatcher();
    const r = (await matcher.match(table, "zb", 10))!;
    expect(r.top.map((t) => t.path)).toEqual(["docs/zebra.md"]);
    // Only the paths holding a z and a b: docs/zebra.md (the folder docs/ has no z).
    expect(matcher.work.scanned).toBe(1);
  });

  it("over very many paths, a query held by a folder's part is scanned once per folder, not per file", async () => {
    const table = tableOf(tree(Math.ceil((QUICK_ABOVE + 10_000) / 1000), 1000));
    const matcher = new FileMatcher();
    const r = (await matcher.match(table, "pkgsrc", 5))!;
    const folders = Array.from({ length: table.count }, (_, i) => table.path(i)).filter((p) => p.endsWith("/"));
    expect(r.total).toBe(table.count - folders.length / 2); // every file and every src/ folder
    // One scan for each folder's paths (a pkgN/ holds only src/; each src/ holds 1,000 files).
    expect(matcher.work.scanned).toBeLessThanOrEqual(folders.length);
    expect(matcher.work.fromFolder).toBe(r.total - matcher.work.scanned);
    // The same answer a pass reading every path gives.
    expect(r.top).toEqual((await new FileMatcher().match(table, "pkgsrc", 5, undefined))!.top);
    expect(r.top.map((t) => t.score)).toEqual(r.top.map((t) => score(t.path, "pkgsrc")));
  });

  it("offers the best so far between chunks, ranked as the full answer is", async () => {
    const paths = tree(Math.ceil((QUICK_ABOVE + 10_000) / 1000), 1000);
    const table = tableOf(paths);
    const early: { top: string[]; total: number }[] = [];
    const r = (await new FileMatcher().match(table, "file999", 3, (soFar) => {
      const so = soFar();
      early.push({ top: so.top.map((t) => t.path), total: so.total });
      return Promise.resolve(true);
    }))!;
    expect(early.length).toBeGreaterThan(1);
    // After the first chunk, the first chunk's best: here already the answer's.
    expect(early[0]!.top).toEqual(r.top.map((t) => t.path));
    expect(early[0]!.total).toBeLessThan(early[1]!.total);
    expect(early.at(-1)!.total).toBeLessThan(r.total);
    expect(r.top.map((t) => t.path)).toEqual(["pkg0/src/file999.ts", "pkg1/src/file999.ts", "pkg2/src/file999.ts"]);
  });
});
