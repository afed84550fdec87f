// Turns an MCP tool result into the text the model reads. Images, audio and binary resources
// become a note saying what was left out ("[image: image/png, 67 bytes]"); images a model can take
// come back beside the text too, for a model that reads them. Structured content goes to the model
// as JSON text and to the UI as one compact line.
import type { ImageAttachment } from "../protocol/conversation.js";
import { base64Bytes, sendableImage } from "../protocol/vision.js";

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

export interface FormattedResult {
  content: string;
  isError: boolean;
  summary?: string;
  /** The result's images of a type and size every provider takes, in order. */
  images?: ImageAttachment[];
}

export function formatMcpResult(result: McpCallResult): FormattedResult {
  const isError = result.isError === true;
  const images = (result.content ?? []).flatMap(imageOf).filter(sendableImage);
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
  const out: FormattedResult = { content, isError };
  if (images.length > 0) out.images = images;
  if (structured === undefined || isError) return out;
  const compact = JSON.stringify(structured);
  out.summary = compact.length > SUMMARY_MAX ? `${compact.slice(0, SUMMARY_MAX - 1)}…` : compact;
  return out;
}

/** An image part, or an embedded resource that is an image, as an attachment. */
function imageOf(part: McpContentPart): ImageAttachment[] {
  if (part.type === "image" && part.data && part.mimeType) return [{ mimeType: part.mimeType, data: part.data }];
  const r = part.type === "resource" ? part.resource : undefined;
  if (r?.blob && r.mimeType?.startsWith("image/")) return [{ mimeType: r.mimeType, data: r.blob }];
  return [];
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
      return `[${part.type}: ${part.mimeType ?? "unknown type"}, ${base64Bytes(part.data ?? "")} bytes]`;
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
  return `[resource: ${resource.uri}, ${type}, ${base64Bytes(resource.blob ?? "")} bytes]`;
}
