// Session ids (and the process tag): version 4 UUIDs. node:crypto's randomUUID gives the same,
// but loading node:crypto cost a headless one-shot ~2.5 ms when nothing else in the run needed it
// (the one-shot's bundle loads it at first use: scripts/one-shot-bundle.mjs). The 122 random bits
// come from the kernel's random source, which node:crypto reads too; where there is no
// /dev/urandom to read (Windows), node:crypto's own.
import { randomUUID } from "node:crypto";
import fs from "node:fs";

/** A random (version 4) UUID. */
export function randomId(): string {
  const bytes = Buffer.alloc(16);
  let fd: number | undefined;
  try {
    fd = fs.openSync("/dev/urandom", "r");
    if (fs.readSync(fd, bytes, 0, 16, null) !== 16) return randomUUID();
  } catch {
    return randomUUID();
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
  // RFC 9562 section 5.4: version 4 in the high nibble of octet 6, variant 10 in octet 8.
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
