// Issue 38: what a constrained reply costs. The protocol's schema is built once per tool set (the
// built-in catalog's specs); a reply then streams through callModel in 32-character deltas, read as
// the JSON protocol under the schema (the status line's tool name searched at the stream's end),
// beside the same size of native text through the hold-back guard. A root without the schema
// builder (main before issue 38) gives the native figure alone.
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const DELTA = 32;
const BUILDS = 200;

const load = (root, rel) => import(pathToFileURL(path.join(root, "dist", ...rel.split("/"))).href);

export async function benchConstrained(root) {
  const { callModel } = await load(root, "agent/model-call.js");
  const { toolSpecs } = await load(root, "tools/runner.js");
  const { coreTools, webTools } = await load(root, "tools/catalog.js");
  const specs = toolSpecs([...coreTools, ...webTools]);
  const schemaFile = path.join(root, "dist", "agent", "replies", "protocol-schema.js");
  const schema = fs.existsSync(schemaFile) ? await import(pathToFileURL(schemaFile).href) : undefined;

  const out = { tools: specs.length };
  let constraint;
  if (schema) {
    const t0 = performance.now();
    for (let i = 0; i < BUILDS; i++) constraint = schema.protocolConstraint(specs);
    out.schema_build_us = ((performance.now() - t0) / BUILDS) * 1000;
    out.schema_bytes = JSON.stringify(constraint.schema).length;
  }
  const content = "x".repeat(400_000);
  const protocolReply = JSON.stringify({
    thoughts: ["write it"],
    tool_name: "write_file",
    tool_args: { path: "a", content },
  });
  const prose = "The parser reads flags left to right; a flag given twice keeps the last value.\n";
  const nativeReply = prose.repeat(Math.ceil(protocolReply.length / prose.length));
  const config = {
    provider: "ollama",
    model: "bench",
    numCtx: 32768,
    toolProtocol: "native",
    idleTimeoutMs: 60_000,
    seesImages: false,
  };
  const time = async (text, cfg, c) => {
    const provider = {
      name: "bench",
      async *stream() {
        for (let i = 0; i < text.length; i += DELTA) yield { type: "text", delta: text.slice(i, i + DELTA) };
        yield { type: "done", promptTokens: 10, completionTokens: 10 };
      },
    };
    const t0 = performance.now();
    await callModel(provider, [{ role: "user", content: "go" }], specs, cfg, new AbortController().signal, () => {}, c);
    return performance.now() - t0;
  };
  out.native_stream_ms = await time(nativeReply, config);
  out.json_stream_ms = await time(protocolReply, { ...config, toolProtocol: "json" });
  if (constraint)
    out.constrained_stream_ms = await time(protocolReply, { ...config, toolProtocol: "json" }, constraint);
  return out;
}

// `node bench/constrained.mjs [root]`: the figures alone (root: another checkout to compare).
if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  console.log(await benchConstrained(path.resolve(process.argv[2] ?? ".")));
}
