import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { collapse, HISTORY_MAX, historyFile, InputHistory, maskForHistory } from "../../src/cli/input-history.js";

let dir = "";
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));
const temp = () => (dir = fs.mkdtempSync(path.join(os.tmpdir(), "agent0-history-")));

describe("input history", () => {
  it("keeps one file per project folder, and what one launch wrote the next one reads", () => {
    const data = temp();
    const a = historyFile(data, "/work/a");
    expect(historyFile(data, "/work/b")).not.toBe(a);
    new InputHistory(a).append("first");
    new InputHistory(a).append("second\nwith two lines");
    expect(new InputHistory(a).load()).toEqual(["first", "second\nwith two lines"]);
    expect(new InputHistory(historyFile(data, "/work/b")).load()).toEqual([]);
  });

  it("is never appended through a link planted in its place (issue 29, part 5)", () => {
    const data = temp();
    const file = historyFile(data, "/work/a");
    const victim = path.join(data, "bashrc");
    fs.writeFileSync(victim, "# the user's file\n");
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.symlinkSync(victim, file);
    expect(() => new InputHistory(file).append("PLANTED")).toThrow();
    expect(fs.readFileSync(victim, "utf8")).toBe("# the user's file\n");
  });

  it("collapses duplicates to their newest place and keeps the last 500", () => {
    expect(collapse(["a", "b", "a", "c"])).toEqual(["b", "a", "c"]);
    const many = Array.from({ length: HISTORY_MAX + 50 }, (_, i) => `p${i}`);
    const kept = collapse(many);
    expect(kept).toHaveLength(HISTORY_MAX);
    expect(kept[0]).toBe("p50");
    expect(kept.at(-1)).toBe(`p${HISTORY_MAX + 49}`);
  });

  it("rewrites a file grown past twice the limit, and skips a torn line", () => {
    const file = path.join(temp(), "h.jsonl");
    const lines = Array.from({ length: 2 * HISTORY_MAX + 10 }, (_, i) => JSON.stringify(`p${i % 600}`));
    fs.writeFileSync(file, lines.join("\n") + '\n"torn');
    const loaded = new InputHistory(file).load();
    expect(loaded).toHaveLength(HISTORY_MAX);
    expect(fs.readFileSync(file, "utf8").trim().split("\n")).toHaveLength(HISTORY_MAX);
  });

  it("never writes a secret: env values and well-known token shapes are masked (attack: a key typed into a prompt)", () => {
    const env = { MY_SERVICE_TOKEN: "canary-secret-8812x" };
    const file = path.join(temp(), "h.jsonl");
    const history = new InputHistory(file, env);
    history.append("use canary-secret-8812x to log in");
    history.append("my key is sk-ant-api03-AbCdEfGhIjKlMnOpQrStUvWx and ghp_0123456789abcdefghijABCDEFGHIJ0123");
    const written = fs.readFileSync(file, "utf8");
    expect(written).not.toContain("canary-secret-8812x");
    expect(written).not.toContain("sk-ant-api03");
    expect(written).not.toContain("ghp_0123");
    expect(written).toContain("use **** to log in");
    expect(maskForHistory("AKIAABCDEFGHIJKLMNOP here", {})).toBe("**** here");
  });
});
