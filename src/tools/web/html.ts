// HTML -> what a model can read: turndown does the parsing and the markdown; we only say what
// to drop (page chrome and code) and make links absolute so the model can follow them.
import TurndownService from "turndown";

/** Elements that are never the content a reader came for. */
const DROPPED = [
  "script",
  "style",
  "nav",
  "footer",
  "noscript",
  "svg",
  "iframe",
  "template",
  "canvas",
  "head",
  "title",
  "form",
];

/** The subset of the DOM node turndown hands to rules that we use. */
interface RuleNode {
  getAttribute(name: string): string | null;
  nodeName: string;
}

function absolute(href: string, base: string): string {
  try {
    return new URL(href, base).href;
  } catch {
    return href;
  }
}

function markdownService(base: string): TurndownService {
  const td = new TurndownService({ headingStyle: "atx", codeBlockStyle: "fenced", bulletListMarker: "-" });
  td.remove(DROPPED as TurndownService.TagName[]);
  td.addRule("absolute-links", {
    filter: (node) => node.nodeName === "A" && Boolean((node as unknown as RuleNode).getAttribute("href")),
    replacement: (content, node) => {
      const href = (node as unknown as RuleNode).getAttribute("href") ?? "";
      const text = content.trim();
      if (href.startsWith("#") || /^javascript:/i.test(href)) return text;
      return text ? `[${text}](${absolute(href, base)})` : "";
    },
  });
  td.addRule("images", {
    filter: "img",
    replacement: (_content, node) => {
      const el = node as unknown as RuleNode;
      const src = el.getAttribute("src") ?? "";
      const alt = (el.getAttribute("alt") ?? "").trim();
      // Inline data: images can be megabytes of base64 that say nothing to a model.
      if (!src || src.startsWith("data:")) return alt;
      return `![${alt}](${absolute(src, base)})`;
    },
  });
  return td;
}

// eslint-disable-next-line no-restricted-syntax -- a cache: one converter, configured once, keeps no state between pages
let plain: TurndownService | undefined;

/** The text of an HTML fragment, entities decoded, markup and markdown escaping left out. */
export function htmlToText(html: string): string {
  if (!plain) {
    plain = new TurndownService();
    plain.addRule("text-only", { filter: () => true, replacement: (content) => content });
    plain.escape = (s: string) => s;
  }
  return plain.turndown(html).replace(/\s+/g, " ").trim();
}

export interface Page {
  title: string;
  markdown: string;
}

/** A page as markdown; `base` resolves relative links. */
export function htmlToMarkdown(html: string, base: string): Page {
  const titleHtml = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(html)?.[1] ?? "";
  const title = titleHtml ? htmlToText(titleHtml) : "";
  const markdown = markdownService(base)
    .turndown(html)
    .replace(/[ \t]+$/gm, "")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
  return { title, markdown };
}
