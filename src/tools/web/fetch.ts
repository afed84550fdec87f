import { type ToolResult, defineTool, type ToolDef } from "../types.js";
import * as z from "zod";
import { outputLimit } from "../output.js";
import { decodeBody, httpRequest, parseWebUrl, WEB_MAX_BYTES, WEB_TIMEOUT_MS } from "./http.js";
import { deniedMessage, looksBinary } from "../files/checks.js";
import { checkPublicAddress } from "./address.js";

export interface WebFetchOptions {
  timeoutMs?: number;
  maxBytes?: number;
}

type Kind = "html" | "text" | "unknown";

function kindOf(contentType: string): Kind | undefined {
  const mime = contentType.split(";")[0]!.trim().toLowerCase();
  if (mime === "") return "unknown";
  if (mime === "text/html" || mime === "application/xhtml+xml") return "html";
  if (mime.startsWith("text/")) return "text";
  if (mime === "application/json" || mime.endsWith("+json") || mime === "application/xml" || mime.endsWith("+xml")) {
    return "text";
  }
  if (mime === "application/javascript" || mime === "application/x-ndjson") return "text";
  return undefined;
}

function refusal(url: string, contentType: string): string {
  const mime = contentType.split(";")[0]!.trim();
  return `Error: ${url} is ${mime}, not a web page or text; web_fetch reads HTML, plain text and JSON only.`;
}

/** Long pages keep their beginning, where the content is; the registry's head+tail cut would keep the footer. */
function fitToLimit(text: string, limit: number): string {
  const budget = Math.max(1000, limit - 200);
  if (text.length <= budget) return text;
  return `${text.slice(0, budget)}\n\n[... page cut: showing the first ${budget} of ${text.length} characters ...]`;
}

/** A factory so tests can shorten the timeout; the tool list uses `webFetchTool`. */
export function createWebFetchTool(opts: WebFetchOptions = {}): ToolDef {
  const timeoutMs = opts.timeoutMs ?? WEB_TIMEOUT_MS;
  const maxBytes = opts.maxBytes ?? WEB_MAX_BYTES;
  return defineTool({
    name: "web_fetch",
    description:
      "Fetch a web page (http or https) and read it as markdown: HTML pages are converted, plain text and JSON " +
      "come as they are. Use it to read documentation or a page found with web_search.",
    schema: () => z.object({ url: z.string().min(1).describe("The full URL, starting with https:// or http://.") }),
    // Read-only (it changes nothing here), but it asks per host: a URL can carry what the model read.
    readOnly: true,
    concurrentSafe: true,
    label: (args) => `fetch ${args.url}`,
    async run(args, ctx): Promise<ToolResult> {
      const parsed = parseWebUrl(args.url);
      if (!parsed.ok) return { content: parsed.error, isError: true };
      const url = parsed.url.href;
      // Each host asks once (per session with "always"): a page can carry what the model read.
      const approved = new Set<string>();
      const allowHost = async (target: URL): Promise<string | undefined> => {
        if (approved.has(target.host)) return undefined;
        const approval = await ctx.approve({
          tool: "web_fetch",
          kind: "fetch",
          args: { url: target.href },
          preview: target.href,
        });
        if (!approval.ok) return deniedMessage(approval.reason);
        approved.add(target.host);
        return undefined;
      };
      const outcome = await httpRequest({
        url,
        signal: ctx.signal,
        timeoutMs,
        maxBytes,
        guard: async (target) =>
          (ctx.config.webFetch?.allowPrivate ? undefined : await checkPublicAddress(target)) ??
          (await allowHost(target)),
        headers: { accept: "text/html, text/markdown, text/plain;q=0.9, application/json;q=0.9, */*;q=0.1" },
        accept: (type) => (kindOf(type) ? undefined : refusal(url, type)),
      });
      if (!outcome.ok) return { content: outcome.error, isError: true };
      const res = outcome.response;
      let kind = kindOf(res.contentType)!;
      // A missing or wrong content type: the bytes themselves decide.
      if (kind !== "html" && looksBinary(res.body)) return { content: refusal(url, "binary data"), isError: true };
      if (kind === "unknown") {
        kind = /^\s*(<!doctype html|<html)/i.test(res.body.subarray(0, 512).toString("utf8")) ? "html" : "text";
      }
      const text = decodeBody(res.body, res.contentType);
      const head = [`URL: ${res.url}`];
      let content = text;
      if (kind === "html") {
        // The HTML parser is half a megabyte of code: loaded when a page needs it, not at start-up.
        const { htmlToMarkdown } = await import("./html.js");
        const page = htmlToMarkdown(text, res.url);
        if (page.title) head.push(`Title: ${page.title}`);
        content = page.markdown;
      }
      if (res.truncated) head.push(`[only the first ${maxBytes} bytes of the page were read]`);
      const out = fitToLimit(`${head.join("\n")}\n\n${content}`, outputLimit(ctx.config));
      const kb = Math.max(1, Math.round(res.body.length / 1024));
      return { content: out, summary: `${kb} KB${kind === "html" ? " → markdown" : ""}` };
    },
  });
}

export const webFetchTool = createWebFetchTool();
