// Pure parsers of the search backends' answers, and the one list format the model reads.
import { htmlToText } from "./html.js";

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

const RESULT_LINK = /<a\b([^>]*\bclass="[^"]*\bresult__a\b[^"]*"[^>]*)>([\s\S]*?)<\/a>/gi;
const SNIPPET = /<(a|div|td|span)\b[^>]*\bclass="[^"]*\bresult__snippet\b[^"]*"[^>]*>([\s\S]*?)<\/\1>/i;

function attr(attrs: string, name: string): string | undefined {
  return new RegExp(`\\b${name}="([^"]*)"`, "i").exec(attrs)?.[1];
}

/**
 * DuckDuckGo's result links go through its redirect `//duckduckgo.com/l/?uddg=<target>`; the
 * target is the address the model wants. Ads go through `/y.js` and are left out.
 */
export function resolveDuckDuckGoLink(href: string): string | undefined {
  const raw = htmlToText(href.replace(/&amp;/g, "&")) || href;
  let url: URL;
  try {
    url = new URL(raw, "https://duckduckgo.com");
  } catch {
    return undefined;
  }
  const target = url.searchParams.get("uddg");
  if (target) return target;
  if (url.pathname === "/y.js" || url.searchParams.has("ad_domain")) return undefined;
  return url.protocol === "http:" || url.protocol === "https:" ? url.href : undefined;
}

/** Results of DuckDuckGo's HTML endpoint (html.duckduckgo.com/html/). */
export function parseDuckDuckGoHtml(html: string): SearchHit[] {
  const links = [...html.matchAll(RESULT_LINK)];
  const hits: SearchHit[] = [];
  links.forEach((m, i) => {
    const start = m.index! + m[0].length;
    const end = i + 1 < links.length ? links[i + 1]!.index! : html.length;
    // The class list of the result block sits just before its link.
    const before = html.slice(Math.max(0, m.index! - 600), m.index!);
    const lastBlock = before.lastIndexOf('class="result ');
    if (lastBlock >= 0 && /result--ad\b/.test(before.slice(lastBlock, before.indexOf('"', lastBlock + 7)))) return;
    const url = resolveDuckDuckGoLink(attr(m[1]!, "href") ?? "");
    if (!url) return;
    const snippet = SNIPPET.exec(html.slice(start, end))?.[2] ?? "";
    hits.push({ title: htmlToText(m[2]!), url, snippet: htmlToText(snippet) });
  });
  return hits;
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
