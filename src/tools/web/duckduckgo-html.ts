// DuckDuckGo's HTML results page -> hits. Apart from search-parse.ts because it needs turndown's
// HTML parser (half a megabyte of code): the tool loads this file only when DuckDuckGo answers.
import { htmlToText } from "./html.js";
import type { SearchHit } from "./search-parse.js";

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
