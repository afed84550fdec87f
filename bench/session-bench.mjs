// Session saving: the cost of one append must not grow with the session (issue 4, check 6),
// and loading a 5,000-message (~2 MB) session stays fast. Needs the build: `npx tsc -p .`.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const TOTAL = 5_000;
const WINDOW = 51; // appends timed around each mark; the median evens out a noisy disk

const filler = "The parser reads flags left to right; a flag given twice keeps the last value. ";

/** Messages of about 400 bytes on disk, cycling through the kinds a real session holds. */
function message(i) {
  const text = `${i}: ${filler.repeat(4)}`.slice(0, 300);
  switch (i % 4) {
    case 0:
      return { role: "user", content: text };
    case 1:
      return {
        role: "assistant",
        content: text.slice(0, 200),
        toolCalls: [{ id: `call_${i}`, name: "read", args: { path: "src/args.ts" } }],
      };
    case 2:
      return { role: "tool", toolCallId: `call_${i - 1}`, toolName: "read", content: text };
    default:
      return { role: "assistant", content: text, thinking: "Check the tests next." };
  }
}

/**
 * The cost of saving an answer while it streams: 400 KB in 64-character deltas through the session
 * recorder, with partial lines (every 4 KB) and without them (only the final message).
 */
async function benchStreamSaves(root) {
  const { SessionRecorder } = await import(pathToFileURL(path.join(here, "..", "dist", "session", "recorder.js")).href);
  const delta = "Some **bold** text with `code` and a [link](https://x.y). More. ";
  const run = (partialChars) => {
    const times = [];
    for (let round = 0; round < 5; round++) {
      const r = new SessionRecorder({
        dir: root,
        fields: () => ({ cwd: "/work/app", provider: "ollama", model: "qwen3:8b" }),
        partialChars,
      });
      r.append({ role: "user", content: "write it" });
      const start = process.hrtime.bigint();
      for (let sent = 0; sent < 400_000; sent += delta.length) r.event({ type: "text", delta, runId: 1 });
      r.event({ type: "message", message: { role: "assistant", content: "done" }, runId: 1 });
      times.push(Number(process.hrtime.bigint() - start) / 1e6);
      r.close();
    }
    return Math.round(median(times) * 10) / 10;
  };
  return { stream_400kb_saved_ms: run(4096), stream_400kb_unsaved_ms: run(Number.POSITIVE_INFINITY) };
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

export async function benchSessions({ dir } = {}) {
  const { SessionWriter, loadSession } = await import(
    pathToFileURL(path.join(here, "..", "dist", "session", "writer.js")).href
  );
  const root = dir ?? fs.mkdtempSync(path.join(os.tmpdir(), "agent0-bench-sessions-"));
  try {
    const writer = SessionWriter.create(root, { cwd: "/work/app", provider: "ollama", model: "qwen3:8b" });
    const early = [];
    const late = [];
    for (let i = 0; i < TOTAL + WINDOW; i++) {
      const start = process.hrtime.bigint();
      writer.append(message(i));
      const micros = Number(process.hrtime.bigint() - start) / 1000;
      if (i >= 10 && i < 10 + WINDOW) early.push(micros);
      if (i >= TOTAL) late.push(micros);
    }
    writer.close();
    const loads = [];
    let count = 0;
    for (let run = 0; run < 5; run++) {
      const start = process.hrtime.bigint();
      const loaded = loadSession(writer.path);
      loads.push(Number(process.hrtime.bigint() - start) / 1e6);
      if (!loaded.ok) throw new Error(loaded.error);
      count = loaded.messages.length;
    }
    if (count !== TOTAL + WINDOW) throw new Error(`loaded ${count} messages, wrote ${TOTAL + WINDOW}`);
    const stream = await benchStreamSaves(root);
    return {
      ...stream,
      append_at_10_us: Math.round(median(early)),
      append_at_5000_us: Math.round(median(late)),
      load_5000_ms: Math.round(median(loads) * 10) / 10,
      file_mb: Math.round((fs.statSync(writer.path).size / 1e6) * 100) / 100,
    };
  } finally {
    if (!dir) fs.rmSync(root, { recursive: true, force: true });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  console.log(JSON.stringify(await benchSessions()));
}
