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
    ...(await benchRecovery(root)),
    prose_ms: time(para.repeat(Math.ceil(400_000 / para.length))),
    one_line_ms: time("word ".repeat(80_000)),
    held_call_ms: time(`{"name": "write_file", "arguments": {"content": "${"x".repeat(400_000)}"}}`),
  };
}

/**
 * Text tool-call recovery (agent/replies/text-tool-calls.ts) runs on every finished answer, and
 * most answers hold no call: a markdown answer with prose, a list, code and JSON, read 200 times.
 */
async function benchRecovery(root) {
  const { recoverToolCalls } = await import(
    pathToFileURL(path.join(root, "dist", "agent", "replies", "text-tool-calls.js")).href
  );
  const tools = ["read_file", "grep_files", "list_files", "run_shell_command", "edit_file", "write_file"];
  const section = [
    "## What the parser does\n",
    "The parser reads flags left to right; a flag given twice keeps the last value. It calls",
    "read_file on each config path, then merges the results:\n",
    "- `--config` takes a path: the file is read with read_file(path) and parsed as JSON.",
    "- `--verbose` prints each step. Action: none is taken when the flag is absent.\n",
    "```ts\nconst text = read_file(path);\nconst cfg = JSON.parse(text) as Config;\nif (!cfg.name) throw new Error(`no name in ${path}`);\n```\n",
    'A config looks like {"name": "app", "version": "1.0.0", "scripts": {"test": "vitest"}}.\n',
  ].join("\n");
  const answer = section.repeat(Math.ceil(4000 / section.length));
  const runs = 200;
  const t0 = performance.now();
  for (let i = 0; i < runs; i++) recoverToolCalls(answer, tools);
  return { recover_4k_us: ((performance.now() - t0) / runs) * 1000 };
}

// `node bench/stream-guard.mjs [root]`: the figures alone (root: another checkout to compare).
if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  console.log(await benchStreamGuard(path.resolve(process.argv[2] ?? ".")));
}
