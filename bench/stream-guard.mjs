// The stream guard (agent/replies/tool-call-stream.ts) sees every text delta of a reply: its cost
// per delta must not grow with the reply. A long reply streamed in 32-character deltas.
import path from "node:path";
import { pathToFileURL } from "node:url";

const DELTA = 32;

export async function benchStreamGuard(root) {
  const { ToolCallStreamGuard } = await import(
    pathToFileURL(path.join(root, "dist", "agent", "replies", "tool-call-stream.js")).href
  );
  const time = (text) => {
    const guard = new ToolCallStreamGuard();
    const t0 = performance.now();
    for (let i = 0; i < text.length; i += DELTA) guard.push(text.slice(i, i + DELTA));
    guard.release();
    return performance.now() - t0;
  };
  const para = "The parser reads flags left to right; a flag given twice keeps the last value.\n";
  return {
    prose_ms: time(para.repeat(Math.ceil(400_000 / para.length))),
    one_line_ms: time("word ".repeat(80_000)),
    held_call_ms: time(`{"name": "write_file", "arguments": {"content": "${"x".repeat(400_000)}"}}`),
  };
}

// `node bench/stream-guard.mjs [root]`: the figures alone (root: another checkout to compare).
if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  console.log(await benchStreamGuard(path.resolve(process.argv[2] ?? ".")));
}
