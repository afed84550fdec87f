// Pure parsers of the search backends' answers, and the one list format the model reads. DuckDuckGo's
// HTML page is read in duckduckgo-html.ts, which loads the HTML parser only when that backend answers.

export interface SearchHit {
  title: string;
  url: string;
  snippet: string;
}

export const MAX_HITS = 8;

/** `1. Title\n   url\n   snippet`, one block per hit. */
export function formatHits(hits: SearchHit[]): string {
  return hits
    .map((h, i) => {
      const lines = [`${i + 1}. ${h.title || h.url}`, `   ${h.url}`];
      if (h.snippet) lines.push(`   ${h.snippet}`);
      return lines.join("\n");
    })
    .join("\n");
}

/** DuckDuckGo answers a suspected bot with a challenge page instead of results. */
export function isDuckDuckGoChallenge(html: string): boolean {
  return /anomaly-modal|challenge-form|captcha/i.test(html);
}

function str(v: unknown): string {
  return typeof v === "string" ? v : "";
}

function hitsFrom(list: unknown, snippetKey: string): SearchHit[] {
  if (!Array.isArray(list)) return [];
  return list
    .filter((r): r is Record<string, unknown> => typeof r === "object" && r !== null && typeof r.url === "string")
    .map((r) => ({
      title: str(r.title).trim(),
      url: str(r.url),
      snippet: str(r[snippetKey]).replace(/\s+/g, " ").trim(),
    }));
}

/** SearXNG `/search?format=json`: `{results: [{url, title, content}]}`. */
export function parseSearxngJson(json: unknown): SearchHit[] {
  return hitsFrom((json as { results?: unknown } | null)?.results, "content");
}

/** Ollama's web search API: `{results: [{title, url, content}]}`; content can be a whole page, so it is cut. */
export function parseOllamaSearch(json: unknown): SearchHit[] {
  return hitsFrom((json as { results?: unknown } | null)?.results, "content").map((h) => ({
    ...h,
    snippet: h.snippet.length > 300 ? `${h.snippet.slice(0, 299)}…` : h.snippet,
  }));
}
