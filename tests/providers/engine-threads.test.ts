// The engine's thread count and the knobs a user sets (`$AGENT0_ENGINE_*`, as llama.cpp's -t, --seed, -n).
// The rule follows llama.cpp's own default (ggml-org/llama.cpp, common/common.cpp: cpu_get_num_math(),
// the physical cores, a hybrid CPU's performance cores only), never node-llama-cpp's floor of 4
// (withcatai/node-llama-cpp, src/bindings/getLlama.ts: maxThreads "the number of CPU cores that are
// useful for math, or 4, whichever is higher"), which left a 2-core machine at 1–2 tokens/s.
import { describe, expect, test } from "vitest";
import { engineThreads, engineTuning } from "../../src/providers/embedded/engine.js";

describe("the engine's threads", () => {
  test.each([
    // [cores useful for math, cores this process may use, threads]
    [2, 2, 2], // these 2-core machines: not node-llama-cpp's 4
    [4, 8, 4], // a Mac M1 (4 performance + 4 efficiency cores): the performance cores
    [8, 16, 8], // 8 cores with hyperthreads: one thread a core
    [12, 16, 12], // an M3 Max (12 + 4): all its performance cores, no cap at 8
    [16, 4, 4], // a container given 4 of 16 cores: the 4 it may use
    [0, 6, 6], // the engine could not tell: the cores available
  ])("%i math cores, %i available: %i threads", (math, available, threads) => {
    expect(engineThreads(math, available)).toBe(threads);
  });
});

describe("the knobs in the environment", () => {
  test("numbers are taken; anything else is not set", () => {
    expect(
      engineTuning({ AGENT0_ENGINE_SEED: "7", AGENT0_ENGINE_MAX_TOKENS: "16", AGENT0_ENGINE_THREADS: "1" }),
    ).toEqual({ seed: 7, maxTokens: 16, threads: 1 });
    expect(
      engineTuning({ AGENT0_ENGINE_THREADS: "0", AGENT0_ENGINE_MAX_TOKENS: "-3", AGENT0_ENGINE_SEED: "x" }),
    ).toEqual({});
  });
});
