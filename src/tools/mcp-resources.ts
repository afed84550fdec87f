// list_mcp_resources and read_mcp_resource: the model's way to the resources MCP servers offer
// (documents, schemas, records), the way the user attaches one with @server:uri.
import * as z from "zod";
import type { McpServerView } from "../protocol/mcp-state.js";
import type { ImageAttachment } from "../protocol/conversation.js";
import { defineTool, type ToolDef, type ToolResult } from "./types.js";

/** A resource or a rendered prompt: its text (binary parts described) and the images in it. */
export interface McpMaterial {
  text: string;
  images: ImageAttachment[];
}

/** What these tools need of the MCP servers (McpManager in the worker). */
export interface McpResourceSource {
  views(): McpServerView[];
  readResource(server: string, uri: string, signal?: AbortSignal): Promise<McpMaterial>;
}

const listSchema = () =>
  z.object({
    server: z.string().optional().describe("Only this server's resources (default: every server)."),
  });

const readSchema = () =>
  z.object({
    server: z.string().describe("The MCP server's name, as list_mcp_resources shows it."),
    uri: z.string().describe("The resource's URI, from list_mcp_resources (or a template filled in)."),
  });

export function mcpResourceTools(source: McpResourceSource): ToolDef[] {
  const list = defineTool({
    name: "list_mcp_resources",
    description:
      "List the resources (documents, data, schemas) that the connected MCP servers offer, with their URIs " +
      "and URI templates. Use it to find something to read with read_mcp_resource.",
    schema: listSchema,
    readOnly: true,
    concurrentSafe: true,
    label: (args) => (args.server ? `list MCP resources of ${args.server}` : "list MCP resources"),
    run: (args): ToolResult => {
      const servers = source.views().filter((v) => v.state === "running" && (!args.server || v.name === args.server));
      if (args.server && servers.length === 0) {
        return { content: `Error: no running MCP server named ${args.server}.`, isError: true };
      }
      const lines: string[] = [];
      for (const v of servers) {
        if (v.resources.length === 0 && v.resourceTemplates.length === 0) continue;
        lines.push(`${v.name}:`);
        for (const r of v.resources) {
          const about = [r.name && r.name !== r.uri ? r.name : "", r.mimeType ?? "", r.description ?? ""].filter(
            Boolean,
          );
          lines.push(`  ${r.uri}${about.length ? ` — ${about.join(", ")}` : ""}`);
        }
        for (const t of v.resourceTemplates) {
          lines.push(`  ${t.uriTemplate} (template)${t.description ? ` — ${t.description}` : ""}`);
        }
      }
      return { content: lines.length ? lines.join("\n") : "The MCP servers offer no resources." };
    },
  });
  const read = defineTool({
    name: "read_mcp_resource",
    description:
      "Read one resource of an MCP server by its URI (see list_mcp_resources). Text comes back as is; " +
      "an image is shown to you when you can see images; other binary content is described by its type and size.",
    schema: readSchema,
    readOnly: true,
    concurrentSafe: true,
    label: (args) => `read ${args.server}:${args.uri}`,
    run: async (args, ctx) => {
      try {
        const { text, images } = await source.readResource(args.server, args.uri, ctx.signal);
        return images.length ? { content: text, images } : { content: text };
      } catch (err) {
        return { content: `Error: ${err instanceof Error ? err.message : String(err)}`, isError: true };
      }
    },
  });
  return [list, read] as ToolDef[];
}

/** Whether any running server offers resources (the tools are offered only then). */
export function offersResources(views: McpServerView[]): boolean {
  return views.some((v) => v.state === "running" && (v.resources.length > 0 || v.resourceTemplates.length > 0));
}
