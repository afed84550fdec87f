// MCP tools as the model uses them: calls through the registry, permission, result text.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { McpManager } from "../../src/agent/mcp/servers.js";
import { EMPTY_RESULT, formatMcpResult } from "../../src/tools/mcp-content.js";
import { runCall } from "../tools/call.js";
import { runToolCall } from "../../src/agent/tool-call.js";
import { MAX_IMAGE_BYTES } from "../../src/protocol/vision.js";
import { mcpResourceTools } from "../../src/tools/mcp-resources.js";
import { mcpToolName } from "../../src/tools/mcp.js";
import type { ToolDef } from "../../src/tools/types.js";
import { makeCtx, testConfig, type CtxOptions } from "../tools/ctx.js";
import { createApprover } from "../../src/agent/approval.js";
import { demoServer } from "./mcp-helpers.js";

let manager: McpManager;
let tools: ToolDef[];

beforeAll(async () => {
  // The same demo server twice: one untrusted, one trusted.
  manager = new McpManager({ demo: demoServer(), sure: demoServer({ trusted: true }) });
  await manager.start();
  tools = manager.tools();
});

afterAll(async () => {
  await manager.close();
});

let callNo = 0;
async function call(name: string, args: Record<string, unknown>, opts: CtxOptions = {}) {
  const ctx = makeCtx(process.cwd(), opts);
  const result = await runCall({ id: `c${++callNo}`, name, args }, tools, ctx);
  return { result, ctx };
}

describe("MCP tools", () => {
  it("echo asks permission with a preview, then returns the server's text", async () => {
    const { result, ctx } = await call("mcp__demo__echo", { text: "hello from the model" });
    expect(result).toEqual({ content: "hello from the model" });
    expect(ctx.approvals).toEqual([
      {
        tool: "mcp__demo__echo",
        kind: "mcp",
        args: { text: "hello from the model" },
        preview: 'demo.echo({"text":"hello from the model"})',
        mcp: { trusted: false, readOnly: false, destructive: false },
        callId: "c1",
      },
    ]);
    expect(ctx.events[0]).toMatchObject({ type: "tool-start", label: 'demo.echo {"text":"hello from the model"}' });
  });

  it("add returns the sum", async () => {
    expect((await call("mcp__demo__add", { a: 2, b: 3 })).result).toEqual({ content: "5" });
  });

  it("a trusted server's tools run without asking", async () => {
    const asked: string[] = [];
    const approve = createApprover(
      { ...testConfig(process.cwd()), interactive: true },
      async (req) => {
        asked.push(req.tool);
        return { decision: "deny" };
      },
      () => {},
    );
    const ctx = { ...makeCtx(process.cwd()), approve };
    const result = await runCall({ id: "t1", name: "mcp__sure__echo", args: { text: "no questions" } }, tools, ctx);
    expect(result).toEqual({ content: "no questions" });
    expect(asked).toEqual([]);
  });

  it("a denied call never reaches the server", async () => {
    const before = (await call("mcp__demo__calls", {})).result.content;
    const { result } = await call("mcp__demo__echo", { text: "secret" }, { deny: "not now" });
    expect(result).toEqual({ content: "Denied by the user: not now", isError: true });
    expect((await call("mcp__demo__calls", {})).result.content).toBe(before);
  });

  it("an image becomes a note with its type and size", async () => {
    expect((await call("mcp__demo__image", {})).result).toEqual({
      content: "Here is the picture.\n[image: image/png, 70 bytes]",
    });
  });

  it("an image reaches a model that reads images beside the note; one that does not gets the note only", async () => {
    const blind = makeCtx(process.cwd());
    const seeing = { ...makeCtx(process.cwd()), config: { ...testConfig(process.cwd()), seesImages: true } };
    const notSeen = await runToolCall({ id: "i1", name: "mcp__demo__image", args: {} }, tools, blind);
    const seen = await runToolCall({ id: "i2", name: "mcp__demo__image", args: {} }, tools, seeing);
    expect(notSeen.images).toBeUndefined();
    expect(seen.content).toBe("Here is the picture.\n[image: image/png, 70 bytes]");
    expect(seen.images).toEqual([{ mimeType: "image/png", data: expect.stringMatching(/^iVBORw0KGgo/) }]);
    // What the user sees of the call never holds the base64.
    expect(JSON.stringify(seen.display)).not.toContain("iVBORw0KGgo");
  });

  it("only images every provider takes are attached: an SVG or an oversized one stays a note", () => {
    const big = "A".repeat(Math.ceil(((MAX_IMAGE_BYTES + 3) * 4) / 3));
    const out = formatMcpResult({
      content: [
        { type: "image", data: "PHN2Zz48L3N2Zz4=", mimeType: "image/svg+xml" },
        { type: "image", data: big, mimeType: "image/png" },
        { type: "image", data: "R0lGODlhAQABAAAAACw=", mimeType: "image/gif" },
        { type: "resource", resource: { uri: "file:///a.webp", mimeType: "image/webp", blob: "UklGRg==" } },
      ],
    });
    expect(out.images).toEqual([
      { mimeType: "image/gif", data: "R0lGODlhAQABAAAAACw=" },
      { mimeType: "image/webp", data: "UklGRg==" },
    ]);
    expect(out.content).toContain("[image: image/svg+xml, 11 bytes]");
  });

  it("resources become notes with their uri, and embedded text is kept", async () => {
    expect((await call("mcp__demo__resource", {})).result).toEqual({
      content: "[resource link: file:///demo/notes.txt (notes.txt)]\n[resource: file:///demo/readme.md]\n# Demo",
    });
  });

  it("isError from the server is an error result", async () => {
    expect((await call("mcp__demo__fail", {})).result).toEqual({
      content: "the demo tool failed on purpose",
      isError: true,
    });
  });

  it("arguments the server's schema rejects come back as an error result", async () => {
    const { result } = await call("mcp__demo__add", { a: "two", b: 3 });
    expect(result.isError).toBe(true);
    expect(result.content).toContain("Input validation error");
  });

  it("an interrupt cancels a running call", async () => {
    // Straight to run(), past the registry, whose own grace period would hide what the tool does.
    const sleep = tools.find((t) => t.name === "mcp__demo__sleep")!;
    const ctx = makeCtx(process.cwd());
    const pending = sleep.run({ ms: 30_000 }, ctx);
    await expect.poll(() => ctx.approvals.length).toBe(1);
    ctx.controller.abort();
    const result = await pending;
    expect(result).toEqual({ content: "Error: interrupted by the user.", isError: true });
  });
});

describe("mcpToolName", () => {
  it("keeps only [a-zA-Z0-9_-] and at most 64 characters", () => {
    expect(mcpToolName("my server", "get.issue/v2")).toBe("mcp__my_server__get_issue_v2");
    const long = mcpToolName("s", "x".repeat(100));
    expect(long).toHaveLength(64);
    expect(long).toBe(`mcp__s__${"x".repeat(56)}`);
  });
});

describe("formatMcpResult", () => {
  it("notes audio and binary resources without their bytes", () => {
    const audio = Buffer.alloc(10).toString("base64");
    expect(
      formatMcpResult({
        content: [
          { type: "audio", data: audio, mimeType: "audio/wav" },
          { type: "resource", resource: { uri: "file:///a.bin", mimeType: "application/octet-stream", blob: audio } },
        ],
      }),
    ).toEqual({
      content: "[audio: audio/wav, 10 bytes]\n[resource: file:///a.bin, application/octet-stream, 10 bytes]",
      isError: false,
    });
  });

  it("falls back to structured content, then to a note that nothing came back", () => {
    expect(formatMcpResult({ content: [], structuredContent: { n: 1 } }).content).toBe('{\n  "n": 1\n}');
    expect(formatMcpResult({ content: [] })).toEqual({ content: EMPTY_RESULT, isError: false });
  });
});

describe("approval of MCP tools", () => {
  const ask = (
    mode: "ask" | "auto-edit" | "yolo",
    hints: { trusted: boolean; readOnly: boolean; destructive: boolean },
  ) => {
    const asked: string[] = [];
    const config = { ...testConfig(process.cwd()), interactive: true, permissionMode: mode };
    const approve = createApprover(
      config,
      async (req) => (asked.push(req.tool), { decision: "always" }),
      () => {},
    );
    const req = { tool: "mcp__s__t", kind: "mcp" as const, args: {}, preview: "", mcp: hints };
    return { asked, approve: () => approve(req) };
  };
  const plainHints = { trusted: false, readOnly: false, destructive: false };

  it("readOnlyHint runs without asking in auto-edit, and asks in ask mode", async () => {
    const auto = ask("auto-edit", { ...plainHints, readOnly: true });
    expect(await auto.approve()).toEqual({ ok: true });
    expect(auto.asked).toEqual([]);
    const strict = ask("ask", { ...plainHints, readOnly: true });
    await strict.approve();
    expect(strict.asked).toEqual(["mcp__s__t"]);
  });

  it("destructiveHint asks every time, on a trusted server and after 'always', but not in yolo", async () => {
    const d = ask("auto-edit", { trusted: true, readOnly: false, destructive: true });
    await d.approve();
    await d.approve();
    expect(d.asked).toEqual(["mcp__s__t", "mcp__s__t"]);
    const yolo = ask("yolo", { trusted: false, readOnly: false, destructive: true });
    expect(await yolo.approve()).toEqual({ ok: true });
    expect(yolo.asked).toEqual([]);
  });
});

describe("images in MCP prompts and resources", () => {
  let media: McpManager;
  beforeAll(async () => {
    media = new McpManager({ pics: demoServer({}, { MCP_DEMO_MEDIA: "1" }) });
    await media.start();
  });
  afterAll(async () => {
    await media.close();
  });

  it("a rendered prompt keeps its image beside the text that describes it", async () => {
    const out = await media.renderPrompt("pics", "look", {});
    expect(out.text).toBe("What is in this picture?\n\n[image: image/png, 70 bytes]");
    expect(out.images).toEqual([{ mimeType: "image/png", data: expect.stringMatching(/^iVBORw0KGgo/) }]);
  });

  it("read_mcp_resource gives an image resource to a model that reads images", async () => {
    const read = mcpResourceTools(media)[1]!;
    const ctx = { ...makeCtx(process.cwd()), config: { ...testConfig(process.cwd()), seesImages: true } };
    const outcome = await runToolCall(
      { id: "r1", name: "read_mcp_resource", args: { server: "pics", uri: "file:///demo/pixel.png" } },
      [read],
      ctx,
    );
    expect(outcome.content).toBe("[resource: file:///demo/pixel.png, image/png, 70 bytes]");
    expect(outcome.images).toEqual([{ mimeType: "image/png", data: expect.stringMatching(/^iVBORw0KGgo/) }]);
  });
});
