// Turns an MCP tool result into the text the model reads. Images, audio and binary resources
// become a note saying what was left out ("[image: image/png, 67 bytes]"); structured content
// goes to the model as JSON text and to the UI as one compact line.

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

const SUMMARY_MAX = 100;

export function formatMcpResult(result: McpCallResult): { content: string; isError: boolean; summary?: string } {
  const isError = result.isError === true;
  const structured = result.structuredContent;
  let content: string;
  if (result.content && result.content.length > 0) {
    content = result.content.map(formatPart).join("\n");
    // The spec asks servers to repeat structured content as text; when one does not, the model
    // still gets it.
    if (structured !== undefined && !mentionsAll(content, structured)) content += `\n${JSON.stringify(structured)}`;
  } else if (structured !== undefined) {
    content = JSON.stringify(structured, null, 2);
  } else if (result.toolResult !== undefined) {
    content = typeof result.toolResult === "string" ? result.toolResult : JSON.stringify(result.toolResult, null, 2);
  } else {
    content = EMPTY_RESULT;
  }
  if (structured === undefined || isError) return { content, isError };
  const compact = JSON.stringify(structured);
  return {
    content,
    isError,
    summary: compact.length > SUMMARY_MAX ? `${compact.slice(0, SUMMARY_MAX - 1)}…` : compact,
  };
}

/** Whether the text already carries every top-level value of the structured result. */
function mentionsAll(text: string, structured: Record<string, unknown>): boolean {
  try {
    const parsed = JSON.parse(text) as unknown;
    if (JSON.stringify(parsed) === JSON.stringify(structured)) return true;
  } catch {
    // Not one JSON document: compare value by value.
  }
  return Object.values(structured).every((v) => text.includes(typeof v === "string" ? v : JSON.stringify(v)));
}

function formatPart(part: McpContentPart): string {
  switch (part.type) {
    case "text":
      return part.text ?? "";
    case "image":
    case "audio":
      return `[${part.type}: ${part.mimeType ?? "unknown type"}, ${base64Bytes(part.data)} bytes]`;
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
  return `[resource: ${resource.uri}, ${type}, ${base64Bytes(resource.blob)} bytes]`;
}

function base64Bytes(data: string | undefined): number {
  return data ? Buffer.from(data, "base64").length : 0;
}
