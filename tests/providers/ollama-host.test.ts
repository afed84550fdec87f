import { describe, expect, it } from "vitest";
import { resolveOllamaHost } from "../../src/providers/ollama/host.js";

describe("resolveOllamaHost", () => {
  it.each([
    [undefined, undefined, "http://127.0.0.1:11434"],
    [undefined, "", "http://127.0.0.1:11434"],
    [undefined, "localhost", "http://localhost:11434"],
    [undefined, "0.0.0.0", "http://127.0.0.1:11434"],
    [undefined, "0.0.0.0:8080", "http://127.0.0.1:8080"],
    [undefined, ":1234", "http://127.0.0.1:1234"],
    [undefined, "http://example.com", "http://example.com:80"],
    [undefined, "https://example.com/", "https://example.com:443"],
    [undefined, "example.com:5000/ollama/", "http://example.com:5000/ollama"],
    [undefined, "ollama.com", "https://ollama.com:443"],
    [undefined, "[::]:11434", "http://[::1]:11434"],
    [undefined, "::1", "http://[::1]:11434"],
    [undefined, "  10.0.0.5  ", "http://10.0.0.5:11434"],
    ["http://flag-host:1", "env-host", "http://flag-host:1"],
  ])("flag %s, OLLAMA_HOST %s -> %s", (flag, env, expected) => {
    expect(resolveOllamaHost(flag, env === undefined ? {} : { OLLAMA_HOST: env })).toBe(expected);
  });
});
