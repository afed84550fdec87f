// Turns an MCP tool result into the text the model reads. Models here read text only, so images,
// audio and binary resources become a note saying what was left out.

/** One content part as the SDK hands it over; only the fields we show are typed. */
export interface McpContentPart {
  type: string;
  text?: string;
  data?: string;
  mimeType?: string;
  uri?: string;
  name?: string;
  resource?: { uri: string; mimeType?: string; text?: string; blob?: string };
}

/** A tools/call result, current shape or the 2024-10-07 `toolResult` one. */
export interface McpCallResult {
  content?: McpContentPart[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
  toolResult?: unknown;
}

export const EMPTY_RESULT = "(the tool returned no content)";

export function formatMcpResult(result: McpCallResult): { content: string; isError: boolean } {
  const isError = result.isError === true;
  let content: string;
  if (result.content && result.content.length > 0) {
    content = result.content.map(formatPart).join("\n");
  } else if (result.structuredContent !== undefined) {
    content = JSON.stringify(result.structuredContent, null, 2);
  } else if (result.toolResult !== undefined) {
    content = typeof result.toolResult === "string" ? result.toolResult : JSON.stringify(result.toolResult, null, 2);
  } else {
    content = EMPTY_RESULT;
  }
  return { content, isError };
}

function formatPart(part: McpContentPart): string {
  switch (part.type) {
    case "text":
      return part.text ?? "";
    case "image":
    case "audio":
      return `[${part.type}: ${part.mimeType ?? "unknown type"}, ${base64Bytes(part.data)} bytes — not shown]`;
    case "resource_link":
      return `[resource link: ${part.uri ?? "?"}${part.name && part.name !== part.uri ? ` (${part.name})` : ""}]`;
    case "resource":
      return formatResource(part.resource);
    default:
      return `[${part.type} content — not shown]`;
  }
}

function formatResource(resource: McpContentPart["resource"]): string {
  if (!resource) return "[resource — empty]";
  if (resource.text !== undefined) return `[resource: ${resource.uri}]\n${resource.text}`;
  const type = resource.mimeType ?? "binary";
  return `[resource: ${resource.uri}, ${type}, ${base64Bytes(resource.blob)} bytes — not shown]`;
}

function base64Bytes(data: string | undefined): number {
  return data ? Buffer.from(data, "base64").length : 0;
}
