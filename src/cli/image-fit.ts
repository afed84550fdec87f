// An attached image made to fit what models take (protocol/vision.ts: MAX_IMAGE_SIDE, MAX_IMAGE_BYTES):
// a larger one is scaled down, keeping its aspect, and encoded again rather than refused. sharp
// (libvips, its prebuilt binary an npm package) is loaded on the first image only: start-up never pays.
import type { Sharp } from "sharp";
import type { ImageAttachment } from "../protocol/conversation.js";
import { MAX_IMAGE_BYTES, MAX_IMAGE_SIDE, imageLimitsText } from "../protocol/vision.js";

export type FittedImage =
  | {
      ok: true;
      image: ImageAttachment;
      bytes: number;
      width?: number;
      height?: number;
      /** Set when the image was scaled or encoded again: what the user is told. */
      note?: string;
    }
  | { ok: false; problem: string };

type SharpModule = (typeof import("sharp"))["default"];

const mb = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MB`;

/** sharp, or why it could not load (a platform without its prebuilt binary). */
async function loadSharp(): Promise<SharpModule | Error> {
  try {
    return (await import("sharp")).default;
  } catch (err) {
    return err as Error;
  }
}

/** The encodings tried in turn on the scaled image: its own type first, then JPEG (no alpha). */
function encodings(mimeType: string): { mimeType: string; encode: (s: Sharp) => Sharp }[] {
  const jpeg = (quality: number) => ({
    mimeType: "image/jpeg",
    encode: (s: Sharp) => s.flatten({ background: "#ffffff" }).jpeg({ quality, mozjpeg: true }),
  });
  const own =
    mimeType === "image/jpeg"
      ? []
      : mimeType === "image/webp"
        ? [{ mimeType, encode: (s: Sharp) => s.webp({ quality: 85 }) }]
        : // A GIF's first frame becomes a PNG: every provider takes it, and nothing is lost.
          [{ mimeType: "image/png", encode: (s: Sharp) => s.png({ compressionLevel: 9 }) }];
  return [...own, jpeg(85), jpeg(60)];
}

/**
 * `buf` (of type `mimeType`, named `name` in what the user is told) as it is when it fits, else
 * scaled down to MAX_IMAGE_SIDE and encoded again until it is under MAX_IMAGE_BYTES.
 */
export async function fitImage(buf: Buffer, mimeType: string, name: string): Promise<FittedImage> {
  const asIs = (): FittedImage => ({ ok: true, image: { mimeType, data: buf.toString("base64") }, bytes: buf.length });
  const sharp = await loadSharp();
  if (sharp instanceof Error) {
    // Without the library the size is all that can be checked.
    if (buf.length <= MAX_IMAGE_BYTES) return asIs();
    return {
      ok: false,
      problem: `${name} is ${mb(buf.length)} and could not be scaled down (the image library did not load: ${sharp.message}); images are sent up to ${imageLimitsText()} — not attached.`,
    };
  }
  let width: number | undefined;
  let height: number | undefined;
  try {
    // The orientation a camera recorded decides which side is the width.
    const meta = await sharp(buf).metadata();
    width = meta.autoOrient?.width ?? meta.width;
    height = meta.autoOrient?.height ?? meta.height;
  } catch (err) {
    return { ok: false, problem: `${name} could not be read as an image (${(err as Error).message}) — not attached.` };
  }
  if (!width || !height) return { ok: false, problem: `${name} has no size to read as an image — not attached.` };
  if (Math.max(width, height) <= MAX_IMAGE_SIDE && buf.length <= MAX_IMAGE_BYTES)
    return { ...asIs(), width, height } as FittedImage;
  for (const { mimeType: type, encode } of encodings(mimeType)) {
    const scaled = sharp(buf, { animated: false })
      .autoOrient()
      .resize({ width: MAX_IMAGE_SIDE, height: MAX_IMAGE_SIDE, fit: "inside", withoutEnlargement: true });
    const out = await encode(scaled)
      .toBuffer({ resolveWithObject: true })
      .catch((err: Error) => err);
    if (out instanceof Error)
      return { ok: false, problem: `${name} could not be scaled down (${out.message}) — not attached.` };
    if (out.data.length > MAX_IMAGE_BYTES) continue;
    const { width: w, height: h } = out.info;
    return {
      ok: true,
      image: { mimeType: type, data: out.data.toString("base64") },
      bytes: out.data.length,
      width: w,
      height: h,
      note: `${name} was ${width}×${height} (${mb(buf.length)}); sent as ${w}×${h} ${type.slice(6).toUpperCase()} (${mb(out.data.length)}): images are sent up to ${imageLimitsText()}.`,
    };
  }
  return {
    ok: false,
    problem: `${name} is still over ${mb(MAX_IMAGE_BYTES)} scaled down to ${MAX_IMAGE_SIDE} px; images are sent up to ${imageLimitsText()} — not attached.`,
  };
}
