import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWebFetchTool, webFetchTool } from "../../src/tools/web/fetch.js";
import { runCall } from "./call.js";
import { checkPublicAddress, isPrivateAddress } from "../../src/tools/web/address.js";
import { httpRequest } from "../../src/tools/web/http.js";
import type { ToolDef, ToolResult } from "../../src/tools/types.js";
import { makeCtx, type TestContext } from "./ctx.js";
import { startFakeWeb, type FakeWeb } from "../fakes/web-server.js";

let web: FakeWeb;
beforeAll(async () => {
  web = await startFakeWeb();
});
afterAll(() => web.close());

/** The fake web server is on 127.0.0.1, which web_fetch refuses unless the config allows it. */
function localCtx(opts: Parameters<typeof makeCtx>[1] = {}): TestContext {
  const ctx = makeCtx("/tmp", opts);
  ctx.config.webFetch = { allowPrivate: true };
  return ctx;
}

function fetchWith(url: string, opts: { tool?: ToolDef; ctx?: TestContext } = {}): Promise<ToolResult> {
  const ctx = opts.ctx ?? localCtx();
  return runCall({ id: "call-1", name: "web_fetch", args: { url } }, [opts.tool ?? webFetchTool], ctx);
}

describe("web_fetch", () => {
  it("turns an HTML page into markdown with its title, headings and absolute links, without page chrome", async () => {
    const r = await fetchWith(`${web.url}/page.html`);
    expect(r.isError).toBeUndefined();
    expect(r.content).toBe(
      [
        `URL: ${web.url}/page.html`,
        "Title: The Fake Handbook",
        "",
        "# Installing the widget",
        "",
        `Run the installer, then read [the setup guide](${web.url}/docs/setup.html).`,
        "",
        "## Options",
        "",
        "-   fast",
        "-   safe",
      ].join("\n"),
    );
    expect(r.content).not.toContain("secret-script-text");
    expect(r.content).not.toContain("footer-text");
  });

  it("shows where a redirect ended", async () => {
    const r = await fetchWith(`${web.url}/redirect`);
    expect(r.content.split("\n").slice(0, 2)).toEqual([`URL: ${web.url}/page.html`, "Title: The Fake Handbook"]);
  });

  it("passes plain text and JSON through unchanged", async () => {
    expect((await fetchWith(`${web.url}/notes.txt`)).content).toBe(
      `URL: ${web.url}/notes.txt\n\nplain notes\n  * not markdown *\n`,
    );
    expect((await fetchWith(`${web.url}/data.json`)).content).toBe(
      `URL: ${web.url}/data.json\n\n{"name":"agent0","tags":["a","b"]}`,
    );
  });

  it("refuses binary content, by content type and by its bytes", async () => {
    const png = await fetchWith(`${web.url}/image.png`);
    expect(png).toEqual({
      content: `Error: ${web.url}/image.png is image/png, not a web page or text; web_fetch reads HTML, plain text and JSON only.`,
      isError: true,
    });
    const untyped = await fetchWith(`${web.url}/untyped`);
    expect(untyped.content).toBe(
      `Error: ${web.url}/untyped is binary data, not a web page or text; web_fetch reads HTML, plain text and JSON only.`,
    );
  });

  it("reports an HTTP error status", async () => {
    const r = await fetchWith(`${web.url}/missing`);
    expect(r).toEqual({ content: `Error: ${web.url}/missing answered HTTP 404 Not Found.`, isError: true });
  });

  it("gives up on a server that does not answer within the timeout", async () => {
    const r = await fetchWith(`${web.url}/slow`, { tool: createWebFetchTool({ timeoutMs: 300 }) });
    expect(r).toEqual({ content: `Error: ${web.url}/slow did not answer within 300 ms.`, isError: true });
  });

  it("stops when the user interrupts", async () => {
    const ctx = localCtx();
    const pending = fetchWith(`${web.url}/slow`, { ctx });
    setTimeout(() => ctx.controller.abort(), 50);
    expect((await pending).content).toBe("Error: interrupted by the user.");
  });

  it("reads at most the byte cap and says so", async () => {
    const r = await fetchWith(`${web.url}/big.txt`, { tool: createWebFetchTool({ maxBytes: 1000 }) });
    expect(r.content).toBe(
      `URL: ${web.url}/big.txt\n[only the first 1000 bytes of the page were read]\n\n${"x".repeat(1000)}`,
    );
  });

  it("keeps the beginning of a page longer than the output limit", async () => {
    const ctx = localCtx({ outputLimit: 5000 });
    const r = await fetchWith(`${web.url}/big.txt`, { ctx });
    expect(r.content.startsWith(`URL: ${web.url}/big.txt\n\nxxxx`)).toBe(true);
    const total = `URL: ${web.url}/big.txt\n\n`.length + 300_000;
    expect(r.content.endsWith(`\n\n[... page cut: showing the first 4800 of ${total} characters ...]`)).toBe(true);
    expect(r.content.length).toBeLessThanOrEqual(5000);
  });

  it("refuses schemes other than http and https, and malformed URLs", async () => {
    expect((await fetchWith("file:///etc/passwd")).content).toBe(
      "Error: only http and https URLs can be fetched, not file:",
    );
    expect((await fetchWith("ftp://example.com/x")).content).toBe(
      "Error: only http and https URLs can be fetched, not ftp:",
    );
    expect((await fetchWith("not a url")).content).toBe(
      "Error: not a valid URL: not a url. Give a full address such as https://example.com/page.",
    );
  });

  it("names the host when nothing listens there", async () => {
    const closed = await startFakeWeb();
    const url = `${closed.url}/page.html`;
    await closed.close();
    const r = await fetchWith(url);
    expect(r.content).toBe(`Error: ${new URL(url).host} refused the connection.`);
  });

  it("asks once per host, and a denial is what the model reads", async () => {
    const ctx = localCtx();
    await fetchWith(`${web.url}/notes.txt`, { ctx });
    expect(ctx.approvals).toEqual([
      {
        tool: "web_fetch",
        kind: "fetch",
        args: { url: `${web.url}/notes.txt` },
        preview: `${web.url}/notes.txt`,
        callId: "call-1",
      },
    ]);
    const denied = localCtx({ deny: "not that site" });
    const r = await fetchWith(`${web.url}/notes.txt`, { ctx: denied });
    expect(r).toEqual({ content: "Denied by the user: not that site", isError: true });
  });
});

describe("web_fetch address checks", () => {
  it("refuses loopback addresses, by name after DNS and by number, before asking", async () => {
    // Loopback only: no test sends to any other address, even with the check reverted; the
    // private, link-local and metadata ranges are covered by "classifies addresses" (no network).
    const refused = [
      `${web.url}/notes.txt`,
      `http://localhost:${new URL(web.url).port}/`,
      `http://[::1]:${new URL(web.url).port}/`,
      `http://[::ffff:127.0.0.1]:${new URL(web.url).port}/`,
      `http://127.9.9.9:${new URL(web.url).port}/`,
    ];
    for (const url of refused) {
      const ctx = makeCtx("/tmp");
      const r = await fetchWith(url, { ctx });
      expect({ url, content: r.content }).toEqual({ url, content: expect.stringContaining("public web only") });
      // Refused before the user is even asked.
      expect(ctx.approvals).toEqual([]);
    }
  });

  it("checks every redirect hop: a redirect from an allowed host to a private one is refused", async () => {
    // The first hop is let through (as a public host would be); the hop to 127.0.0.1 is checked anew.
    const ctx = makeCtx("/tmp");
    let first = true;
    const guard = async (url: URL) => {
      if (first) {
        first = false;
        return undefined;
      }
      return checkPublicAddress(url);
    };
    const r = await httpRequest({ url: `${web.url}/redirect`, signal: ctx.signal, guard });
    expect(r).toEqual({ ok: false, error: expect.stringContaining("public web only") });
  });

  it("classifies addresses", () => {
    for (const a of [
      "127.0.0.1",
      "10.0.0.1",
      "172.16.5.4",
      "192.168.1.1",
      "169.254.169.254",
      "::1",
      "fe80::1",
      "fd00::1",
    ])
      expect({ a, private: isPrivateAddress(a) }).toEqual({ a, private: true });
    for (const a of ["93.184.216.34", "1.1.1.1", "2606:4700:4700::1111", "172.32.0.1"])
      expect({ a, private: isPrivateAddress(a) }).toEqual({ a, private: false });
  });

  // IPv6 forms that carry an IPv4 address (issue 29, part 7): NAT64 (RFC 6052), 6to4 (RFC 3056),
  // IPv4-compatible (RFC 4291 §2.5.5.1), IPv4-mapped in hex, SIIT's ::ffff:0:a.b.c.d (RFC 2765), and
  // site-local fec0::/10 (RFC 3879). The decision only: nothing is sent to these addresses.
  it("decodes IPv4 embedded in IPv6 and applies the IPv4 rules", () => {
    const inside = [
      "64:ff9b::7f00:1",
      "64:ff9b::127.0.0.1",
      "64:ff9b::a9fe:a9fe",
      "64:ff9b::10.0.0.1",
      "2002:7f00:1::",
      "2002:a9fe:a9fe::1",
      "2002:c0a8:101::1",
      "::127.0.0.1",
      "::a9fe:a9fe",
      "::10.1.2.3",
      "::ffff:7f00:1",
      "::ffff:0:127.0.0.1",
      "::ffff:0:a9fe:a9fe",
      "fec0::1",
      "feff::1",
    ];
    for (const a of inside) expect({ a, private: isPrivateAddress(a) }).toEqual({ a, private: true });
    const outside = ["64:ff9b::808:808", "64:ff9b::8.8.8.8", "2002:808:808::1", "2606:4700:4700::1111", "2a00:1450::1"];
    for (const a of outside) expect({ a, private: isPrivateAddress(a) }).toEqual({ a, private: false });
  });
});
