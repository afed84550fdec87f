import { describe, expect, it } from "vitest";
import { modelNotFoundHint, nearestModelNames } from "../../src/agent/model-suggest.js";
import type { Provider } from "../../src/providers/types.js";

// Names as `ollama list` prints them on a typical machine (tags from the Ollama library).
const INSTALLED = [
  "qwen3:8b",
  "qwen3:14b",
  "qwen2.5-coder:7b",
  "llama3.2:3b",
  "llama3.1:8b",
  "gemma3:4b",
  "mistral:latest",
];

describe("did you mean: the nearest installed model names", () => {
  it.each([
    // The tag left off: Ollama looks for `:latest`, which is not there.
    ["qwen3", ["qwen3:14b", "qwen3:8b"]],
    // A typo and a swapped pair of letters.
    ["qwen3:8", ["qwen3:8b"]],
    ["qwne3:8b", ["qwen3:8b"]],
    ["lama3.2:3b", ["llama3.2:3b"]],
    // The name without its tag, as users type `mistral`.
    ["mistral", ["mistral:latest"]],
    ["gemma3:4B", ["gemma3:4b"]],
  ])("%s → %j", (wanted, names) => {
    expect(nearestModelNames(wanted, INSTALLED)).toEqual(names);
  });

  it("nothing close: no guess", () => {
    expect(nearestModelNames("deepseek-r1:70b", INSTALLED)).toEqual([]);
  });

  it("the hint names them and /model, then the provider's advice", async () => {
    const provider = {
      listModels: async () => INSTALLED.map((name) => ({ name, capabilities: [] })),
    } as unknown as Provider;
    const signal = new AbortController().signal;
    expect(await modelNotFoundHint(provider, "qwen3:8", "Run `ollama pull qwen3:8`", signal)).toBe(
      "Did you mean qwen3:8b? /model lists the installed models; else run `ollama pull qwen3:8`.",
    );
    const failing = { listModels: async () => Promise.reject(new Error("down")) } as unknown as Provider;
    expect(await modelNotFoundHint(failing, "qwen3:8", "Run `ollama pull qwen3:8`", signal)).toBe(
      "Run `ollama pull qwen3:8`",
    );
  });
});
