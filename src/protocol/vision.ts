// Part of protocol/: which images a model is sent, decided the same way on both threads (the
// worker when it asks the server about the model; the UI when it keeps what the worker learned).
import type { ConversationMessage, ImageAttachment } from "./conversation.js";

/** The image types every provider takes (Anthropic's and OpenAI's lists; Ollama decodes these). */
export const IMAGE_TYPES_FOR_MODELS: readonly string[] = ["image/png", "image/jpeg", "image/gif", "image/webp"];

/**
 * Bytes of one image sent at most: Anthropic refuses an image whose base64 is over 5 MB ("image
 * exceeds 5 MB maximum: … bytes > 5242880 bytes"), and base64 is 4/3 of the bytes. A larger image
 * is scaled down when attached (cli/image-fit.ts); a tool's is described instead of sent.
 */
export const MAX_IMAGE_BYTES = (5 * 1024 * 1024 * 3) / 4;

/**
 * Pixels of an image's longest side sent at most: Anthropic's vision guide scales any image whose
 * long edge is over 1568 px down before the model sees it, so more pixels only cost upload and time.
 */
export const MAX_IMAGE_SIDE = 1568;

/** The limits as the README and the notices state them. */
export function imageLimitsText(): string {
  return `${MAX_IMAGE_SIDE} px on the longest side and ${(MAX_IMAGE_BYTES / 1024 / 1024).toFixed(2)} MB`;
}

/**
 * Whether the model reads images: the config's `vision` when set (a hosted model the server
 * misreports), else what the server says (Ollama's `vision` capability; hosted providers report it).
 */
export function seesImages(vision: boolean | undefined, capabilities: readonly string[]): boolean {
  return vision ?? capabilities.includes("vision");
}

/** The bytes a base64 string holds, without decoding it. */
export function base64Bytes(data: string): number {
  const pad = data.endsWith("==") ? 2 : data.endsWith("=") ? 1 : 0;
  return Math.floor((data.length * 3) / 4) - pad;
}

/** Whether an image a tool returned can go to a model as it is (type and size). */
export function sendableImage(image: ImageAttachment): boolean {
  return IMAGE_TYPES_FOR_MODELS.includes(image.mimeType) && base64Bytes(image.data) <= MAX_IMAGE_BYTES;
}

/**
 * The conversation for a model that does not read images: every image dropped (its message's text
 * already describes it). Returns `messages` itself when no message carries one.
 */
export function withoutImages(messages: ConversationMessage[]): ConversationMessage[] {
  if (!messages.some((m) => m.images)) return messages;
  return messages.map((m) => {
    if (!m.images) return m;
    const { images: _drop, ...rest } = m;
    return rest;
  });
}
