// `cat error.log | agent0 -p "why does this fail?"`: when stdin is a pipe or a file, its text goes
// with the prompt, as Claude Code, Codex (`exec -`) and gemini-cli do. A terminal, or /dev/null (what
// a script's "ignore" gives), is not input. Binary data is refused with a clear error; an empty pipe
// is said, never silently dropped.
import fs from "node:fs";
import { looksBinary } from "../context/binary.js";
import { maskSecrets } from "../safety/secrets.js";
import { ATTACH_MAX_CHARS, cutAttachment } from "./attach-limits.js";

export type PipedInput =
  | { kind: "none" }
  | { kind: "empty" }
  | { kind: "binary"; bytes: number }
  | { kind: "text"; text: string; bytes: number; lines: number };

/** Whether fd 0 carries input: a pipe, a socket or a regular file (not a terminal, not a device). */
export function stdinIsInput(fd = 0): boolean {
  try {
    const st = fs.fstatSync(fd);
    return st.isFIFO() || st.isFile() || st.isSocket();
  } catch {
    return false; // closed
  }
}

/** Reads fd 0 to its end (the writer may take minutes, as `npm test | agent0 -p` does). */
function readAll(fd: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const stream = fs.createReadStream("", { fd, autoClose: false });
    stream.on("data", (c) => chunks.push(c as Buffer));
    stream.on("end", () => resolve(Buffer.concat(chunks)));
    stream.on("error", reject);
  });
}

export async function readPipedInput(fd = 0): Promise<PipedInput> {
  if (!stdinIsInput(fd)) return { kind: "none" };
  const buf = await readAll(fd);
  if (buf.length === 0) return { kind: "empty" };
  if (looksBinary(buf)) return { kind: "binary", bytes: buf.length };
  const text = buf.toString("utf8");
  return { kind: "text", text, bytes: buf.length, lines: text.split("\n").length - (text.endsWith("\n") ? 1 : 0) };
}

/** "12.3 KB", "512 bytes". */
export function sizeText(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/**
 * The prompt with the piped text after it, its size stated and cut like an attached file; `note`
 * is what the user is told when it was cut.
 */
export function withPipedText(
  prompt: string,
  input: Extract<PipedInput, { kind: "text" }>,
  /** The project's own secret values (its .env files), masked like the environment's. */
  projectSecrets: readonly string[] = [],
): {
  content: string;
  typed: string;
  note?: string;
} {
  const size = `${sizeText(input.bytes)}, ${input.lines} line${input.lines === 1 ? "" : "s"}`;
  const { text, cut } = cutAttachment(
    maskSecrets(input.text, process.env, projectSecrets),
    "stdin",
    `the first ${ATTACH_MAX_CHARS} are above`,
  );
  const note = cut ? `stdin is ${size}: only its first ${ATTACH_MAX_CHARS} characters were attached.` : undefined;
  const block = `<stdin size="${size}">\n${text.endsWith("\n") ? text : `${text}\n`}</stdin>`;
  return { content: `${prompt}\n\n${block}`, typed: `${prompt}\n[piped stdin: ${size}]`, ...(note ? { note } : {}) };
}
