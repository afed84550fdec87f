// keep_alive as sent to Ollama: a session-length default, and -1 as a number. Ollama's api.Duration
// reads a JSON number as seconds (negative: forever) and a string as a Go duration, where "-1" has
// no unit and is refused with a 400 (ollama/ollama api/types.go, Duration.UnmarshalJSON; see
// shared/reference/ollama-wire.md §1.1 and §6.5).
import { describe, expect, it } from "vitest";
import { keepAliveValue, resolveConfig } from "../../src/cli/config.js";

const resolve = (flag?: string, file?: string | number) =>
  resolveConfig({ keepAlive: flag }, file === undefined ? {} : { keepAlive: file }, { interactive: true }, {})
    .keepAlive;

describe("keep_alive", () => {
  it("defaults to 30 minutes, so a pause longer than Ollama's 5 does not unload the model", () => {
    expect(resolve()).toBe("30m");
  });

  it("sends -1 (keep loaded) and other whole numbers as numbers, durations as they are", () => {
    expect(resolve("-1")).toBe(-1);
    expect(resolve("600")).toBe(600);
    expect(resolve("10m")).toBe("10m");
    expect(resolve(undefined, "2h")).toBe("2h");
    expect(resolve(undefined, -1)).toBe(-1);
    expect(resolve("5m", "2h")).toBe("5m");
    expect(keepAliveValue(" -1 ")).toBe(-1);
  });
});
