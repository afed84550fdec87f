// Issue 38: the reply schema is built once per tool set (src/agent/run-state.ts constraintsFor),
// then looked up. Its cost cold (the first build in a fresh process, as a run's first JSON-protocol
// step pays it), warm (built again and again), and the lookup after it; the same for the mapping to
// node-llama-cpp's grammar schema (src/providers/embedded/gbnf-schema.ts) and, where the engine is
// installed (bench/engine.mjs finds it), the engine's grammar built from it. A root without the
// schema builder (main before issue 38) says so.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { benchEngineDir, engineSkipReason, jsonFromChild } from "./engine.mjs";

const HERE = fileURLToPath(import.meta.url);
const PROCESSES = 5;
const WARM = 200;
const GRAMMARS = 5;

const load = (root, rel) => import(pathToFileURL(path.join(root, "dist", ...rel.split("/"))).href);

export function hasSchemaBuilder(root) {
  return fs.existsSync(path.join(root, "dist", "agent", "replies", "protocol-schema.js"));
}

export async function benchSchemaBuild(root) {
  const withEngine = (await engineSkipReason(root)) === undefined;
  const samples = [];
  for (let i = 0; i < PROCESSES; i++)
    samples.push(await jsonFromChild([HERE, "--sample", root, withEngine && i < 3 ? "grammar" : "schema"]));
  const all = (k) => samples.flatMap((s) => (s[k] === undefined ? [] : [s[k]].flat()));
  return {
    tools: samples[0].tools,
    schemaBytes: samples[0].schemaBytes,
    coldUs: all("coldUs"),
    warmUs: all("warmUs"),
    lookupUs: all("lookupUs"),
    gbnfColdUs: all("gbnfColdUs"),
    gbnfWarmUs: all("gbnfWarmUs"),
    grammarColdMs: all("grammarColdMs"),
    grammarMs: all("grammarMs"),
  };
}

/** One fresh process: the first build is the cold one. */
async function sample(root, grammar) {
  const { toolSpecs } = await load(root, "tools/runner.js");
  const { coreTools, webTools } = await load(root, "tools/catalog.js");
  const { protocolConstraint } = await load(root, "agent/replies/protocol-schema.js");
  const { constraintsFor } = await load(root, "agent/run-state.js");
  const { toGbnfJsonSchema } = await load(root, "providers/embedded/gbnf-schema.js");
  const specs = toolSpecs([...coreTools, ...webTools]);
  const us = (t0) => (performance.now() - t0) * 1000;

  // The run's own path: its first JSON-protocol step builds, every later step looks up.
  const constraints = constraintsFor(specs);
  let t0 = performance.now();
  const schema = constraints.reply().schema;
  const coldUs = us(t0);
  t0 = performance.now();
  for (let i = 0; i < WARM; i++) constraints.reply();
  const lookupUs = us(t0) / WARM;
  t0 = performance.now();
  for (let i = 0; i < WARM; i++) protocolConstraint(specs);
  const warmUs = us(t0) / WARM;

  t0 = performance.now();
  const gbnf = toGbnfJsonSchema(schema);
  const gbnfColdUs = us(t0);
  t0 = performance.now();
  for (let i = 0; i < WARM; i++) toGbnfJsonSchema(schema);
  const gbnfWarmUs = us(t0) / WARM;

  const out = { tools: specs.length, schemaBytes: JSON.stringify(schema).length, coldUs, warmUs, lookupUs };
  Object.assign(out, { gbnfColdUs, gbnfWarmUs });
  if (grammar) {
    // What the embedded provider does with a constrained request: the engine's grammar from the mapping.
    const { loadEngineModule } = await load(root, "providers/embedded/engine.js");
    const engine = await loadEngineModule(benchEngineDir(root));
    const llama = await engine.getLlama({ gpu: false, build: "never", logLevel: "error" });
    const times = [];
    for (let i = 0; i < GRAMMARS + 1; i++) {
      t0 = performance.now();
      await llama.createGrammarForJsonSchema(gbnf);
      times.push(performance.now() - t0);
    }
    out.grammarColdMs = times[0];
    out.grammarMs = times.slice(1);
    await llama.dispose();
  }
  return out;
}

if (process.argv[2] === "--sample") {
  console.log(JSON.stringify(await sample(process.argv[3], process.argv[4] === "grammar")));
  process.exit(0);
} else if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  // `node bench/schema-build.mjs [root]`: the figures alone (root: another checkout to compare).
  const root = path.resolve(process.argv[2] ?? ".");
  console.log(hasSchemaBuilder(root) ? await benchSchemaBuild(root) : { skipped: "no schema builder in this build" });
}
