// Part of protocol/: which images a model is sent, decided the same way on both threads (the
// worker when it asks the server about the model; the UI when it keeps what the worker learned).
import type { ConversationMessage, ImageAttachment } from "./conversation.js";

/** The image types every provider takes (Anthropic's and OpenAI's lists; Ollama decodes these). */
export const IMAGE_TYPES_FOR_MODELS: readonly string[] = ["image/png", "image/jpeg", "image/gif", "image/webp"];

/** Anthropic's limit per image; a larger one is described instead of sent. */
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;

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
