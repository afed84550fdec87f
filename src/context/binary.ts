// What counts as binary data, for every reader of files and input (the file tools, `@path`, piped stdin).

/** Git's rule: a NUL byte in the first 8000 bytes makes a file binary. */
export function looksBinary(buf: Uint8Array): boolean {
  const end = Math.min(buf.length, 8000);
  for (let i = 0; i < end; i++) if (buf[i] === 0) return true;
  return false;
}
