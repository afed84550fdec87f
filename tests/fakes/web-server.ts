// A fake of the web on 127.0.0.1 for web_fetch and web_search: pages of each content type, the
// three search backends' answers, and the failures (404, slow, binary). Records every request.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface WebRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

export interface FakeHit {
  title: string;
  url: string;
  snippet: string;
}

export interface FakeWeb {
  url: string;
  readonly requests: WebRequest[];
  close(): Promise<void>;
}

/** The results every search backend of the fake returns, in order. */
export const FAKE_HITS: FakeHit[] = [
  {
    title: "Vitest — Getting Started",
    url: "https://vitest.dev/guide/",
    snippet: "Vitest is a next generation testing framework.",
  },
  { title: "Fish & Chips", url: "https://example.org/fish?a=1&b=2", snippet: "A classic <dish> from the UK." },
];

export const OLLAMA_KEY = "test-ollama-key";

export const PAGE_HTML = `<!doctype html>
<html><head><title>The Fake Handbook</title><style>body { color: red }</style>
<script>window.tracking = "secret-script-text";</script></head>
<body>
<nav><a href="/">Home</a> | <a href="/about">About</a></nav>
<h1>Installing the widget</h1>
<p>Run the installer, then read <a href="/docs/setup.html">the setup guide</a>.</p>
<h2>Options</h2>
<ul><li>fast</li><li>safe</li></ul>
<footer>Copyright footer-text</footer>
</body></html>`;

const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/** The shape of html.duckduckgo.com/html/: an ad first, then results whose links go through /l/?uddg=. */
export function ddgPage(hits: FakeHit[]): string {
  const ad = `<div class="result results_links results_links_deep result--ad ">
  <div class="links_main links_deep result__body"><h2 class="result__title">
  <a rel="nofollow" class="result__a" href="https://duckduckgo.com/y.js?ad_domain=ads.example&amp;u3=x">Buy Widgets Now</a></h2>
  <a class="result__snippet" href="https://duckduckgo.com/y.js?ad_domain=ads.example">Sponsored.</a></div></div>`;
  const results = hits.map(
    (h) => `<div class="result results_links results_links_deep web-result ">
  <div class="links_main links_deep result__body"><h2 class="result__title">
  <a rel="nofollow" class="result__a" href="//duckduckgo.com/l/?uddg=${encodeURIComponent(h.url)}&amp;rut=abc123">${esc(h.title)}</a>
  </h2><div class="result__extras"><div class="result__extras__url"><a class="result__url" href="#">${esc(h.url)}</a></div></div>
  <a class="result__snippet" href="//duckduckgo.com/l/?uddg=${encodeURIComponent(h.url)}">${esc(h.snippet).replace("testing", "<b>testing</b>")}</a>
  <div class="clear"></div></div></div>`,
  );
  return `<!DOCTYPE html><html><head><title>q at DuckDuckGo</title></head><body><div id="links" class="results">${ad}${results.join("\n")}</div></body></html>`;
}

const NO_RESULTS = `<html><body><div class="no-results">No results.</div></body></html>`;
const CHALLENGE = `<html><body><div class="anomaly-modal__title">Unfortunately, bots use DuckDuckGo too.</div><form id="challenge-form"></form></body></html>`;
/** A PNG signature and some NUL bytes. */
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52]);

function send(res: ServerResponse, status: number, type: string | undefined, body: string | Buffer): void {
  res.writeHead(status, type ? { "content-type": type } : {});
  res.end(body);
}

function route(req: WebRequest, res: ServerResponse): void {
  switch (req.path) {
    case "/page.html":
      return send(res, 200, "text/html; charset=utf-8", PAGE_HTML);
    case "/redirect":
      res.writeHead(302, { location: "/page.html" });
      return void res.end();
    case "/notes.txt":
      return send(res, 200, "text/plain; charset=utf-8", "plain notes\n  * not markdown *\n");
    case "/data.json":
      return send(res, 200, "application/json", '{"name":"agent0","tags":["a","b"]}');
    case "/image.png":
      return send(res, 200, "image/png", PNG);
    case "/untyped":
      return send(res, 200, undefined, PNG);
    case "/big.txt":
      return send(res, 200, "text/plain", "x".repeat(300_000));
    case "/slow":
      return; // never answers: the client's timeout must end it
    case "/ddg/html/": {
      const q = req.query.q ?? "";
      if (q === "nothing at all") return send(res, 200, "text/html", NO_RESULTS);
      if (q === "bot") return send(res, 202, "text/html", CHALLENGE);
      return send(res, 200, "text/html; charset=utf-8", ddgPage(FAKE_HITS));
    }
    case "/searxng/search":
      if (req.query.format !== "json") return send(res, 403, "text/plain", "Forbidden");
      return send(
        res,
        200,
        "application/json",
        JSON.stringify({
          query: req.query.q,
          results: FAKE_HITS.map((h) => ({ url: h.url, title: h.title, content: h.snippet, engine: "fake" })),
        }),
      );
    case "/ollama/api/web_search":
      if (req.headers.authorization !== `Bearer ${OLLAMA_KEY}`)
        return send(res, 401, "application/json", '{"error":"unauthorized"}');
      return send(
        res,
        200,
        "application/json",
        JSON.stringify({
          results: FAKE_HITS.map((h) => ({ title: h.title, url: h.url, content: h.snippet })),
        }),
      );
    default:
      return send(res, 404, "text/html", "<h1>Not Found</h1>");
  }
}

async function record(req: IncomingMessage): Promise<WebRequest> {
  const parts: Buffer[] = [];
  for await (const part of req) parts.push(part as Buffer);
  const url = new URL(req.url ?? "/", "http://127.0.0.1");
  return {
    method: req.method ?? "GET",
    path: url.pathname,
    query: Object.fromEntries(url.searchParams),
    headers: req.headers,
    body: Buffer.concat(parts).toString("utf8"),
  };
}

export async function startFakeWeb(): Promise<FakeWeb> {
  const requests: WebRequest[] = [];
  const server = createServer((req, res) => {
    record(req).then(
      (rec) => {
        requests.push(rec);
        route(rec, res);
      },
      // A request that broke off is no request: the socket is gone.
      () => res.destroy(),
    );
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
