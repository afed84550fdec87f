// The embedded engine's catalogue, `--model`'s three forms and the pick for this machine's memory.
import { describe, expect, test } from "vitest";
import {
  CATALOGUE,
  catalogueEntry,
  formatBytes,
  parseModelRef,
  pickModelForMemory,
  refName,
} from "../../src/providers/embedded/catalogue.js";
import { splitProviderModel } from "../../src/providers/index.js";

const GB = 1e9;

describe("--model for the embedded engine", () => {
  test.each([
    // A path: what `llama-cli -m` and node-llama-cpp's `--model` take.
    ["./models/tiny.gguf", { kind: "file", path: "./models/tiny.gguf" }],
    ["/abs/Qwen.GGUF", { kind: "file", path: "/abs/Qwen.GGUF" }],
    // hf:<owner>/<repo>[:<quant>]: node-llama-cpp's own URI scheme (`hf:user/model:quant`,
    // https://node-llama-cpp.withcat.ai/guide/downloading-models#model-uris), Q4_K_M by default as
    // llama.cpp's `-hf` picks (ggml-org/llama.cpp common/arg.cpp).
    [
      "hf:Qwen/Qwen2.5-Coder-3B-Instruct-GGUF",
      { kind: "hf", repo: "Qwen/Qwen2.5-Coder-3B-Instruct-GGUF", quant: "Q4_K_M" },
    ],
    [
      "hf:bartowski/Qwen2.5-Coder-7B-Instruct-GGUF:Q6_K",
      { kind: "hf", repo: "bartowski/Qwen2.5-Coder-7B-Instruct-GGUF", quant: "Q6_K" },
    ],
  ])("%s", (text, want) => {
    expect(parseModelRef(text)).toEqual(want);
  });

  test("a short name is the catalogue's entry, case-insensitive; a family alone is its default size", () => {
    const ref = parseModelRef("Qwen2.5-Coder:7B");
    expect(ref).toMatchObject({ kind: "catalogue", entry: { repo: "Qwen/Qwen2.5-Coder-7B-Instruct-GGUF" } });
    expect(catalogueEntry("qwen2.5-coder")?.name).toBe("qwen2.5-coder:1.5b");
  });

  test("an unknown name says the three forms and the catalogue's names", () => {
    const r = parseModelRef("llama99:1b");
    expect(r).toHaveProperty("error");
    expect((r as { error: string }).error).toContain("qwen2.5-coder:3b");
    expect(parseModelRef("hf:no-repo")).toHaveProperty("error");
  });

  test("embedded/<model> names the provider, as anthropic/<model> does", () => {
    expect(splitProviderModel("embedded/qwen2.5-coder:3b")).toEqual({
      provider: "embedded",
      model: "qwen2.5-coder:3b",
    });
  });

  test("refName gives back what parses to the same ref", () => {
    for (const text of ["qwen2.5-coder:3b", "hf:a/b-GGUF:Q8_0", "/x/y.gguf"]) {
      const ref = parseModelRef(text);
      if ("error" in ref) throw new Error(ref.error);
      expect(parseModelRef(refName(ref))).toEqual(ref);
    }
  });
});

describe("the catalogue", () => {
  test("every entry names a repository, a .gguf file, its size, window and memory (more than the file)", () => {
    expect(CATALOGUE.map((e) => e.name)).toEqual(
      expect.arrayContaining(["qwen2.5-coder:1.5b", "qwen2.5-coder:3b", "qwen2.5-coder:7b"]),
    );
    for (const e of CATALOGUE) {
      expect(e.repo).toMatch(/^[\w.-]+\/[\w.-]+$/);
      expect(e.file).toMatch(/\.gguf$/);
      expect(e.contextLength).toBeGreaterThanOrEqual(32_768);
      expect(e.memoryBytes).toBeGreaterThan(e.sizeBytes);
    }
    expect(new Set(CATALOGUE.map((e) => e.name)).size).toBe(CATALOGUE.length);
  });
});

describe("the model for this machine's memory", () => {
  test.each([
    // [free, total, pick]
    [1 * GB, 4 * GB, "qwen2.5-coder:0.5b"],
    [3 * GB, 8 * GB, "qwen2.5-coder:1.5b"],
    [6 * GB, 8 * GB, "qwen2.5-coder:3b"],
    [12 * GB, 16 * GB, "qwen2.5-coder:7b"],
    [100 * GB, 128 * GB, "qwen2.5-coder:7b"],
    // Little free on a big machine: what fits now, not what the machine could hold.
    [2.6 * GB, 64 * GB, "qwen2.5-coder:1.5b"],
    // Nothing fits: the smallest, and loading says the figures.
    [0.2 * GB, 1 * GB, "qwen2.5-coder:0.5b"],
  ])("%d free of %d: %s", (free, total, name) => {
    expect(pickModelForMemory(free, total).name).toBe(name);
  });
});

test("sizes read as people write them", () => {
  expect(formatBytes(1_117_320_736)).toBe("1.1 GB");
  expect(formatBytes(491_000_000)).toBe("491 MB");
  expect(formatBytes(470_000)).toBe("470 KB");
});
