// An ACP prompt (content blocks) as agent0's user turn: text as typed, the editor's @-mentions
// (resource links) read as `@path` is read, embedded resources (the editor's buffer, preferred
// over the disk) attached as they came, images kept for a model that sees them.
import path from "node:path";
import { fileURLToPath } from "node:url";
import type * as acp from "@agentclientprotocol/sdk";
import type { ConversationMessage, ImageAttachment } from "../../protocol/conversation.js";
import { IMAGE_TYPES_FOR_MODELS } from "../../protocol/vision.js";
import { maskSecrets } from "../../safety/secrets.js";
import { readMentions } from "../attach.js";

export interface PromptTurn {
  /** What the user wrote (the text blocks), the way the session shows it. */
  typed: string;
  message: ConversationMessage;
  /** What could not be attached, for the user. */
  problems: string[];
}

/** A file: URI as a path relative to the project (or absolute when outside it); other URIs as they are. */
function uriPath(uri: string, cwd: string): string | undefined {
  if (!uri.startsWith("file:")) return undefined;
  try {
    const abs = fileURLToPath(uri);
    const rel = path.relative(cwd, abs);
    return rel.startsWith("..") || path.isAbsolute(rel) ? abs : rel;
  } catch {
    return undefined;
  }
}

export async function promptTurn(blocks: acp.ContentBlock[], cwd: string): Promise<PromptTurn> {
  const texts: string[] = [];
  const attached: string[] = [];
  const images: ImageAttachment[] = [];
  const problems: string[] = [];
  const mentions: string[] = [];
  const image = (mimeType: string, data: string, what: string) => {
    if (IMAGE_TYPES_FOR_MODELS.includes(mimeType)) images.push({ mimeType, data });
    else problems.push(`${what}: ${mimeType} images are not supported — not attached.`);
  };
  for (const block of blocks) {
    switch (block.type) {
      case "text":
        texts.push(block.text);
        break;
      case "image":
        image(block.mimeType, block.data, block.uri ?? "an image");
        break;
      case "resource_link": {
        const p = uriPath(block.uri, cwd);
        if (p !== undefined) mentions.push(p);
        else attached.push(`<attached resource="${block.uri}" name="${block.name}"/>`);
        break;
      }
      case "resource": {
        const r = block.resource;
        const where = uriPath(r.uri, cwd) ?? r.uri;
        if ("text" in r) attached.push(`<attached file="${where}">\n${maskSecrets(r.text)}\n</attached>`);
        else if (r.mimeType?.startsWith("image/")) image(r.mimeType, r.blob, where);
        else problems.push(`${where}: binary resources are not supported — not attached.`);
        break;
      }
      case "audio":
        problems.push("audio is not supported — not attached.");
        break;
      default:
        break;
    }
  }
  const typed = texts.join("\n");
  if (mentions.length) {
    const read = await readMentions("", cwd, mentions);
    problems.push(...read.problems);
    if (read.content.trim()) attached.push(read.content.trim());
  }
  const content = attached.length ? `${typed}\n\n${attached.join("\n\n")}` : typed;
  const message: ConversationMessage = { role: "user", content };
  if (content !== typed) message.typed = typed;
  if (images.length) message.images = images;
  return { typed, message, problems };
}
