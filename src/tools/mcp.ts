// A tool of an MCP server, as one ToolDef: named mcp__<server>__<tool>, described by the server,
// asking permission as approval.ts decides from the server's trust and the tool's hints, reporting
// progress, and turning the result into text.
import * as z from "zod";
import type { RunEvent } from "../protocol/agent-event.js";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { formatMcpResult, type McpCallResult } from "./mcp-content.js";
import { deniedMessage } from "./files/checks.js";
import { RUN_INTERRUPTED } from "./runner.js";
import type { ToolDef, ToolResult } from "./types.js";

/** Providers accept tool names of at most 64 characters from this alphabet. */
export const MCP_TOOL_NAME_MAX = 64;
const LABEL_ARGS_MAX = 60;

/** What a server announces about one of its tools (the SDK's Tool, narrowed to what we use). */
export interface McpToolInfo {
  name: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  /** The server's hints (untrusted by the spec); approval reads readOnlyHint and destructiveHint. */
  annotations?: { readOnlyHint?: boolean; destructiveHint?: boolean; title?: string };
}

export interface McpToolSource {
  /** The server's name in the config. */
  server: string;
  trusted: boolean;
  client: Pick<Client, "callTool">;
  callTimeoutMs: number;
}

/**
 * The server validates the arguments against its own JSON schema, so ours only checks for an
 * object; `jsonSchema` is what the model is shown instead of a schema derived from `schema`.
 */
export interface McpToolDef extends ToolDef<z.ZodRecord<z.ZodString, z.ZodUnknown>> {
  jsonSchema: Record<string, unknown>;
  server: string;
  /** The tool's own name on its server. */
  mcpTool: string;
}

const argsSchema = z.record(z.string(), z.unknown());

export function sanitizeName(s: string): string {
  return s.replace(/[^a-zA-Z0-9_-]/g, "_");
}

/** `mcp__<server>__<tool>`, sanitized and cut to the 64 characters providers accept. */
export function mcpToolName(server: string, tool: string): string {
  return `mcp__${sanitizeName(server)}__${sanitizeName(tool)}`.slice(0, MCP_TOOL_NAME_MAX);
}

/** The server's input schema as the model should see it: an object schema without `$schema`. */
export function modelJsonSchema(inputSchema: Record<string, unknown>): Record<string, unknown> {
  const { $schema: _drop, ...rest } = inputSchema;
  return { type: "object", properties: {}, ...rest };
}

export function mcpToolDef(name: string, tool: McpToolInfo, source: McpToolSource): McpToolDef {
  const { server } = source;
  const description = `[MCP server ${server}] ${tool.description?.trim() || tool.name}`;
  const preview = (args: Record<string, unknown>): string => `${server}.${tool.name}(${JSON.stringify(args)})`;
  return {
    name,
    description,
    schema: argsSchema,
    jsonSchema: modelJsonSchema(tool.inputSchema),
    server,
    mcpTool: tool.name,
    readOnly: false,
    concurrentSafe: false,
    label: (args) => {
      const shown = JSON.stringify(args);
      return `${server}.${tool.name} ${shown.length > LABEL_ARGS_MAX ? `${shown.slice(0, LABEL_ARGS_MAX - 1)}…` : shown}`;
    },
    async run(args, ctx): Promise<ToolResult> {
      const hints = {
        trusted: source.trusted,
        readOnly: tool.annotations?.readOnlyHint === true,
        destructive: tool.annotations?.destructiveHint === true,
      };
      const approval = await ctx.approve({ tool: name, kind: "mcp", args, preview: preview(args), mcp: hints });
      if (!approval.ok) return { content: deniedMessage(approval.reason), isError: true };
      try {
        const result = await source.client.callTool({ name: tool.name, arguments: args }, undefined, {
          // Aborting sends notifications/cancelled for this request (the SDK does it on abort).
          signal: ctx.signal,
          timeout: source.callTimeoutMs,
          // A server that reports progress is alive: its call may outlast the timeout.
          resetTimeoutOnProgress: true,
          onprogress: (p) => {
            const event: Extract<RunEvent, { type: "tool-progress" }> = {
              type: "tool-progress",
              id: ctx.callId,
              progress: p.progress,
            };
            if (p.total !== undefined) event.total = p.total;
            if (p.message !== undefined) event.message = p.message;
            ctx.emit(event);
          },
        });
        const { content, isError, summary, images } = formatMcpResult(result as McpCallResult);
        const out: ToolResult = { content };
        if (isError) out.isError = true;
        if (summary) out.summary = summary;
        if (images) out.images = images;
        return out;
      } catch (err) {
        if (ctx.signal.aborted) return { content: RUN_INTERRUPTED, isError: true };
        const message = err instanceof Error ? err.message : String(err);
        return { content: `Error: MCP server ${server} failed to run ${tool.name}: ${message}`, isError: true };
      }
    },
  };
}
