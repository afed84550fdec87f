// What the image tests share (images.test.ts, images-large-and-pasted.test.ts,
// images-one-shot.test.ts): a tiny PNG, PNGs of any size, an image's size as a server received it,
// a vision model, and waiting until the app knows the model's capabilities.
import sharp from "sharp";
import { loggedEvents, sleep, waitUntil, type Sandbox, type Tui } from "./harness.js";

/** The app took the server's answer about the model (its capabilities): the run log has its `model-info`. */
export async function shown(sb: Sandbox): Promise<void> {
  await waitUntil(() => loggedEvents(sb).some((e) => e.type === "model-info"), 10_000, "the model's facts");
}

/** Sends a prompt that names an `@image`, once the app knows the model, past the @ menu it opens. */
export async function sendNaming(sb: Sandbox, tui: Tui, prompt: string): Promise<void> {
  await shown(sb);
  tui.type(prompt);
  tui.press("Escape"); // closes the @ menu
  await sleep(200);
  tui.press("Enter");
}

// A 1×1 PNG (the smallest valid one): what `@pic.png` attaches.
export const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
  "base64",
);

/** A PNG of this size, made here (a gradient, so scaling has something to keep). */
export async function png(width: number, height: number): Promise<Buffer> {
  const raw = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) raw.set([(x * 255) / width, (y * 255) / height, 128], (y * width + x) * 3);
  return sharp(raw, { raw: { width, height, channels: 3 } })
    .png()
    .toBuffer();
}

/** The size of an image as a server received it (base64). */
export async function sizeOf(base64: string): Promise<[number, number, number]> {
  const buf = Buffer.from(base64, "base64");
  const meta = await sharp(buf).metadata();
  return [meta.width!, meta.height!, buf.length];
}

export const VISION = { name: "qwen2.5vl:7b", contextLength: 32768, capabilities: ["completion", "tools", "vision"] };
