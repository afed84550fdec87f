import { type ToolResult, defineTool, type ToolDef } from "../types.js";
import * as z from "zod";
import type { RunConfig } from "../../protocol/run-config.js";
import { decodeBody, httpRequest } from "./http.js";
import {
  formatHits,
  isDuckDuckGoChallenge,
  MAX_HITS,
  parseOllamaSearch,
  parseSearxngJson,
  type SearchHit,
} from "./search-parse.js";

type Env = Record<string, string | undefined>;
export type SearchBackendName = NonNullable<RunConfig["webSearch"]>["backend"];

export interface SearchBackend {
  backend: SearchBackendName;
  /** DuckDuckGo: the HTML endpoint itself. SearXNG: the instance. Ollama: the API host. */
  url: string;
  apiKey?: string;
}

export const DEFAULT_DDG_URL = "https://html.duckduckgo.com/html/";
export const DEFAULT_OLLAMA_SEARCH_URL = "https://ollama.com";
const SEARCH_TIMEOUT_MS = 20_000;
/** DuckDuckGo's HTML endpoint turns away clients that do not look like a browser. */
const BROWSER_UA = "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0";

/**
 * The backend of a run: config.webSearch (default DuckDuckGo). Every base URL can be moved —
 * config `url`, else AGENT0_DDG_URL / AGENT0_SEARXNG_URL / AGENT0_OLLAMA_SEARCH_URL — so tests
 * and self-hosted setups never have to reach the public services.
 */
export function resolveSearchBackend(
  setting: RunConfig["webSearch"],
  env: Env = process.env,
): SearchBackend | { error: string } {
  const backend = setting?.backend ?? "duckduckgo";
  const configured = setting?.url?.trim() || undefined;
  switch (backend) {
    case "duckduckgo":
      return { backend, url: configured ?? (env.AGENT0_DDG_URL || DEFAULT_DDG_URL) };
    case "searxng": {
      const url = configured ?? env.AGENT0_SEARXNG_URL;
      if (!url) {
        return {
          error:
            "Error: web search is set to SearXNG but no URL is configured: " +
            'set webSearch.url in config.json (e.g. "http://localhost:8888").',
        };
      }
      return { backend, url };
    }
    case "ollama": {
      const apiKey = setting?.apiKey || env.OLLAMA_API_KEY;
      if (!apiKey) {
        return {
          error:
            "Error: Ollama's web search needs an API key: set OLLAMA_API_KEY or webSearch.apiKey in config.json " +
            "(keys: https://ollama.com/settings/keys).",
        };
      }
      return { backend, url: configured ?? (env.AGENT0_OLLAMA_SEARCH_URL || DEFAULT_OLLAMA_SEARCH_URL), apiKey };
    }
  }
}

function endpoint(base: string, path: string, params: Record<string, string>): string {
  const url = new URL(path, base.endsWith("/") ? base : `${base}/`);
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  return url.href;
}

type Hits = { ok: true; hits: SearchHit[] } | { ok: false; error: string };

async function search(b: SearchBackend, query: string, signal: AbortSignal): Promise<Hits> {
  const common = { signal, timeoutMs: SEARCH_TIMEOUT_MS };
  if (b.backend === "duckduckgo") {
    const url = new URL(b.url);
    url.searchParams.set("q", query);
    const out = await httpRequest({
      ...common,
      url: url.href,
      headers: { "user-agent": BROWSER_UA, accept: "text/html" },
    });
    if (!out.ok) return out;
    const html = decodeBody(out.response.body, out.response.contentType);
    const { parseDuckDuckGoHtml } = await import("./duckduckgo-html.js");
    const hits = parseDuckDuckGoHtml(html);
    if (hits.length === 0 && (out.response.status === 202 || isDuckDuckGoChallenge(html))) {
      return {
        ok: false,
        error:
          "Error: DuckDuckGo refused this automated search (rate limit or bot check). Try again later, or configure " +
          'webSearch {"backend": "searxng", "url": ...} or {"backend": "ollama"} in config.json.',
      };
    }
    return { ok: true, hits };
  }
  if (b.backend === "searxng") {
    const url = endpoint(b.url, "search", { q: query, format: "json" });
    const out = await httpRequest({ ...common, url, headers: { accept: "application/json" } });
    // SearXNG answers 403 when its JSON format is not enabled.
    if (!out.ok && out.error.includes("HTTP 403")) {
      return {
        ok: false,
        error: `${out.error} Enable the json format under search.formats in SearXNG's settings.yml.`,
      };
    }
    if (!out.ok) return out;
    return parseJson(out.response.body, parseSearxngJson, "SearXNG");
  }
  const out = await httpRequest({
    ...common,
    url: endpoint(b.url, "api/web_search", {}),
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${b.apiKey ?? ""}` },
    body: JSON.stringify({ query, max_results: MAX_HITS }),
  });
  if (!out.ok) return out;
  return parseJson(out.response.body, parseOllamaSearch, "Ollama's web search");
}

function parseJson(body: Buffer, parse: (json: unknown) => SearchHit[], who: string): Hits {
  try {
    return { ok: true, hits: parse(JSON.parse(body.toString("utf8"))) };
  } catch {
    return { ok: false, error: `Error: ${who} did not answer with JSON.` };
  }
}

export const webSearchTool: ToolDef = defineTool({
  name: "web_search",
  description:
    "Search the web. Returns a numbered list of results (title, URL, snippet); read a result with web_fetch. " +
    "Search once or twice with good keywords, then answer from what you found.",
  schema: () => z.object({ query: z.string().min(1).describe("What to search for, as keywords.") }),
  readOnly: true,
  concurrentSafe: true,
  label: (args) => `search the web: ${args.query}`,
  async run(args, ctx): Promise<ToolResult> {
    const backend = resolveSearchBackend(ctx.config.webSearch);
    if ("error" in backend) return { content: backend.error, isError: true };
    const found = await search(backend, args.query, ctx.signal);
    if (!found.ok) return { content: found.error, isError: true };
    const hits = found.hits.slice(0, MAX_HITS);
    if (hits.length === 0) return { content: `No results for "${args.query}".`, summary: "no results" };
    return { content: formatHits(hits), summary: hits.length === 1 ? "1 result" : `${hits.length} results` };
  },
});
