import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunConfig } from "../../src/protocol/run-config.js";
import { resolveSearchBackend, webSearchTool } from "../../src/tools/web/search.js";
import { parseDuckDuckGoHtml } from "../../src/tools/web/duckduckgo-html.js";
import { runCall } from "./call.js";
import type { ToolResult } from "../../src/tools/types.js";
import { makeCtx } from "./ctx.js";
import { ddgPage, FAKE_HITS, OLLAMA_KEY, startFakeWeb, type FakeWeb } from "../fakes/web-server.js";

let web: FakeWeb;
beforeAll(async () => {
  web = await startFakeWeb();
});
afterAll(() => web.close());

function searchWith(setting: RunConfig["webSearch"], query: string): Promise<ToolResult> {
  const ctx = makeCtx("/tmp");
  ctx.config.webSearch = setting;
  return runCall({ id: "call-1", name: "web_search", args: { query } }, [webSearchTool], ctx);
}

/** What every backend answers for FAKE_HITS. */
const EXPECTED = [
  "1. Vitest — Getting Started",
  "   https://vitest.dev/guide/",
  "   Vitest is a next generation testing framework.",
  "2. Fish & Chips",
  "   https://example.org/fish?a=1&b=2",
  "   A classic <dish> from the UK.",
].join("\n");

describe("web_search", () => {
  it("reads DuckDuckGo's HTML results: redirect links resolved, entities decoded, ads left out", async () => {
    const r = await searchWith({ backend: "duckduckgo", url: `${web.url}/ddg/html/` }, "vitest guide");
    expect(r.content).toBe(EXPECTED);
    const req = web.requests.at(-1)!;
    expect(req.path).toBe("/ddg/html/");
    expect(req.query.q).toBe("vitest guide");
  });

  it("reads SearXNG's JSON results into the same list", async () => {
    const r = await searchWith({ backend: "searxng", url: `${web.url}/searxng` }, "vitest guide");
    expect(r.content).toBe(EXPECTED);
    expect(web.requests.at(-1)!.query).toEqual({ q: "vitest guide", format: "json" });
  });

  it("posts to Ollama's web search API with the bearer key", async () => {
    const r = await searchWith({ backend: "ollama", url: `${web.url}/ollama`, apiKey: OLLAMA_KEY }, "vitest guide");
    expect(r.content).toBe(EXPECTED);
    const req = web.requests.at(-1)!;
    expect(req.method).toBe("POST");
    expect(JSON.parse(req.body)).toEqual({ query: "vitest guide", max_results: 8 });
  });

  it("says when nothing was found", async () => {
    const r = await searchWith({ backend: "duckduckgo", url: `${web.url}/ddg/html/` }, "nothing at all");
    expect(r).toEqual({ content: 'No results for "nothing at all".' });
  });

  it("explains DuckDuckGo's bot check and how to use another backend", async () => {
    const r = await searchWith({ backend: "duckduckgo", url: `${web.url}/ddg/html/` }, "bot");
    expect(r.isError).toBe(true);
    expect(r.content).toMatch(/^Error: DuckDuckGo refused this automated search \(rate limit or bot check\)\./);
  });

  it("reports a backend's HTTP error", async () => {
    const r = await searchWith({ backend: "ollama", url: `${web.url}/ollama`, apiKey: "wrong" }, "q");
    expect(r).toEqual({
      content: `Error: ${web.url}/ollama/api/web_search answered HTTP 401 Unauthorized.`,
      isError: true,
    });
  });
});

describe("resolveSearchBackend", () => {
  it("defaults to DuckDuckGo, whose endpoint AGENT0_DDG_URL moves", () => {
    expect(resolveSearchBackend(undefined, {})).toEqual({
      backend: "duckduckgo",
      url: "https://html.duckduckgo.com/html/",
    });
    expect(resolveSearchBackend(undefined, { AGENT0_DDG_URL: "http://127.0.0.1:9/ddg" })).toEqual({
      backend: "duckduckgo",
      url: "http://127.0.0.1:9/ddg",
    });
  });

  it("prefers the configured URL over the environment", () => {
    expect(resolveSearchBackend({ backend: "searxng", url: "http://a" }, { AGENT0_SEARXNG_URL: "http://b" })).toEqual({
      backend: "searxng",
      url: "http://a",
    });
  });

  it("needs a URL for SearXNG and a key for Ollama", () => {
    expect(resolveSearchBackend({ backend: "searxng" }, {})).toEqual({
      error:
        'Error: web search is set to SearXNG but no URL is configured: set webSearch.url in config.json (e.g. "http://localhost:8888").',
    });
    expect(resolveSearchBackend({ backend: "ollama" }, {})).toHaveProperty("error");
    expect(resolveSearchBackend({ backend: "ollama" }, { OLLAMA_API_KEY: "k" })).toEqual({
      backend: "ollama",
      url: "https://ollama.com",
      apiKey: "k",
    });
  });
});

describe("parseDuckDuckGoHtml", () => {
  it("keeps a result whose link does not go through the redirect", () => {
    const page = ddgPage([{ title: "Direct", url: "https://direct.example/", snippet: "s" }]).replace(
      /href="\/\/duckduckgo\.com\/l\/\?uddg=[^"]*"/,
      'href="https://direct.example/"',
    );
    expect(parseDuckDuckGoHtml(page)).toEqual([{ title: "Direct", url: "https://direct.example/", snippet: "s" }]);
    expect(parseDuckDuckGoHtml(ddgPage(FAKE_HITS)).map((h) => h.title)).toEqual(FAKE_HITS.map((h) => h.title));
  });
});
