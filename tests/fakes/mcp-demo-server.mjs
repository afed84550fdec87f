#!/usr/bin/env node
// A small stdio MCP server for tests, built with the official SDK: server "demo" with the tools
// echo {text}, add {a, b}, image (one PNG content part), fail (isError), resource (a link and an
// embedded resource), sleep {ms}, and calls (how many other tools ran, so tests can prove a denied
// call never reached the server). stdout carries protocol only.
// With MCP_DEMO_MEDIA set it also offers a prompt and a resource holding an image.
// With MCP_DEMO_PID_FILE set it writes its pid there, so tests can check it is gone later.
import fs from "node:fs";
import * as z from "zod";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";

if (process.env.MCP_DEMO_PID_FILE) fs.writeFileSync(process.env.MCP_DEMO_PID_FILE, String(process.pid));

// A 1x1 transparent PNG (67 bytes).
const PIXEL_PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";

const server = new McpServer({ name: "demo", version: "1.0.0" });
let calls = 0;
const registerTool = (name, config, handler) =>
  server.registerTool(name, config, async (...args) => {
    calls++;
    return handler(...args);
  });

server.registerTool("calls", { description: "How many calls of the other tools this server has run." }, async () => ({
  content: [{ type: "text", text: String(calls) }],
}));

registerTool(
  "sleep",
  { description: "Wait, then answer.", inputSchema: { ms: z.number().int().min(0) } },
  async ({ ms }) => {
    await new Promise((resolve) => setTimeout(resolve, ms));
    return { content: [{ type: "text", text: `slept ${ms} ms` }] };
  },
);

registerTool(
  "echo",
  { description: "Return the text unchanged.", inputSchema: { text: z.string().describe("Text to echo.") } },
  async ({ text }) => ({ content: [{ type: "text", text }] }),
);

registerTool(
  "add",
  { description: "Add two numbers.", inputSchema: { a: z.number(), b: z.number() } },
  async ({ a, b }) => ({ content: [{ type: "text", text: String(a + b) }] }),
);

registerTool("image", { description: "Return a 1x1 PNG image." }, async () => ({
  content: [
    { type: "text", text: "Here is the picture." },
    { type: "image", data: PIXEL_PNG, mimeType: "image/png" },
  ],
}));

registerTool("fail", { description: "Always report an error." }, async () => ({
  content: [{ type: "text", text: "the demo tool failed on purpose" }],
  isError: true,
}));

registerTool("resource", { description: "Return a link and an embedded resource." }, async () => ({
  content: [
    { type: "resource_link", uri: "file:///demo/notes.txt", name: "notes.txt" },
    { type: "resource", resource: { uri: "file:///demo/readme.md", mimeType: "text/markdown", text: "# Demo" } },
  ],
}));

// With MCP_DEMO_MEDIA set: a prompt and a resource that hold the PNG (for image attachments).
if (process.env.MCP_DEMO_MEDIA) {
  server.registerPrompt("look", { description: "Ask about the picture." }, async () => ({
    messages: [
      { role: "user", content: { type: "text", text: "What is in this picture?" } },
      { role: "user", content: { type: "image", data: PIXEL_PNG, mimeType: "image/png" } },
    ],
  }));
  server.registerResource("pixel", "file:///demo/pixel.png", { mimeType: "image/png" }, async (uri) => ({
    contents: [{ uri: uri.href, mimeType: "image/png", blob: PIXEL_PNG }],
  }));
}

await server.connect(new StdioServerTransport());
