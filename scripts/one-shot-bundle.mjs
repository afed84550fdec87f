// A headless one-shot's code, as one CommonJS file (dist/bundle/one-shot.cjs) that
// src/start/code-cache.ts compiles with a V8 code cache. As ES modules (node 20 has no compile cache
// for them) the one-shot's ~30 files cost ~50 ms before the run began: ~21 ms parsing, ~10 ms
// resolving and linking, the rest evaluating. One script with a cache is read and deserialised in
// ~8 ms. The packages only some one-shots use (another provider's SDK, the MCP client, a web
// page's converter) stay out of it: each is a file of its own (vendor-*.cjs), required when the
// module that imports it first runs, so a plain one-shot never reads them.
import { builtinModules } from "node:module";
import { build } from "esbuild";

/** Packages the one-shot loads only on the paths that use them (all are large). */
const VENDORS = ["@anthropic-ai/sdk", "openai", "@modelcontextprotocol/sdk", "fast-glob", "turndown"];

const vendorOf = (spec) => VENDORS.find((v) => spec === v || spec.startsWith(`${v}/`));
const vendorFile = (pkg) => `vendor-${pkg.replace(/^@/, "").replace(/[/]/g, "-")}.cjs`;

/**
 * Each import of a vendor package becomes a module that takes the package's exports from its
 * vendor file (loaded and cached as one-shot.cjs is), as named bindings (their names read from the package itself). Only the modules of
 * the paths that use a package import it, and esbuild initialises those on first use (they are
 * dynamically imported), so the vendor file is read then.
 */
function vendorFacades(used) {
  return {
    name: "vendor-facades",
    setup(b) {
      b.onResolve({ filter: /^[@a-z]/ }, (args) => {
        const pkg = vendorOf(args.path);
        if (!pkg || args.namespace === "vendor") return undefined;
        return { path: args.path, namespace: "vendor", pluginData: { pkg } };
      });
      b.onLoad({ filter: /.*/, namespace: "vendor" }, async (args) => {
        const { pkg } = args.pluginData;
        (used.get(pkg) ?? used.set(pkg, new Set()).get(pkg)).add(args.path);
        // __agent0_load: src/start/code-cache.ts's, for the files beside this one (cached like it).
        const m = `__agent0_load(${JSON.stringify(vendorFile(pkg))}).modules[${JSON.stringify(args.path)}]`;
        const contents = reexports(`const m = ${m};`, Object.keys(await import(args.path)));
        return { contents, loader: "js", resolveDir: process.cwd() };
      });
    },
  };
}

/**
 * Node's modules a one-shot may never use, required at the first call of one of their functions:
 * node:child_process (~1 ms, with dgram and the rest it loads) starts nothing in a one-shot
 * outside a repository that calls no tool; node:crypto (~2.5 ms) hashes and names nothing in a
 * run that calls no tool (session ids come from src/session/random-id.ts).
 */
const LAZY_BUILTINS = new Set(["child_process", "crypto"]);

/**
 * A lazy builtin's functions, each a stand-in that requires the module first. Only its plain
 * functions are offered (lower-case names: a class such as ChildProcess is not), so importing
 * anything else fails the build rather than loading the module early.
 */
function lazyBuiltin(name, mod) {
  const lines = ["let m;", `const load = () => (m ??= require("node:${name}"));`];
  for (const n of Object.keys(mod).filter(
    (n) => IDENTIFIER.test(n) && typeof mod[n] === "function" && /^[a-z]/.test(n),
  ))
    lines.push(`export function ${n}(...args) { return load().${n}(...args); }`);
  return lines.join("\n");
}

/**
 * Node's own modules, each through one module of the bundle. In a CommonJS bundle every ES import
 * of a CommonJS module copies its exports into a new object (esbuild's __toESM): the one-shot's
 * ~300 imports of node:fs, node:path and the rest took ~3 ms of its start. Through one module,
 * each is copied once, and the imports take their names from it.
 */
function builtinsOnce() {
  return {
    name: "builtins-once",
    setup(b) {
      b.onResolve({ filter: /^(node:)?[a-z_/]+$/ }, (args) => {
        const name = args.path.replace(/^node:/, "");
        if (args.kind !== "import-statement" || args.namespace === "builtin" || !builtinModules.includes(name))
          return undefined;
        return { path: name, namespace: "builtin" };
      });
      b.onResolve({ filter: /.*/, namespace: "builtin" }, (args) => ({ path: args.path, external: true }));
      b.onLoad({ filter: /.*/, namespace: "builtin" }, async (args) => {
        const mod = await import(`node:${args.path}`);
        const contents = LAZY_BUILTINS.has(args.path)
          ? lazyBuiltin(args.path, mod)
          : reexports(`import * as m from "node:${args.path}";`, Object.keys(mod));
        return { contents, loader: "js" };
      });
    },
  };
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/**
 * A module that gets `m` by the statement `take` and gives `m`'s exports as its own: the default
 * and every name that can be a binding. A stand-in for a module the bundle must not import itself.
 */
function reexports(take, names) {
  const lines = [take];
  if (names.includes("default")) lines.push("export default m.default;");
  for (const n of names) if (n !== "default" && IDENTIFIER.test(n)) lines.push(`export const ${n} = m.${n};`);
  return lines.join("\n");
}

/** One vendor file: every module path the one-shot imports of `pkg`, keyed by that path. */
async function buildVendor(pkg, specs, common) {
  const list = [...specs].sort();
  const contents = [
    ...list.map((s, i) => `import * as m${i} from ${JSON.stringify(s)};`),
    `export const modules = { ${list.map((s, i) => `${JSON.stringify(s)}: m${i}`).join(", ")} };`,
  ].join("\n");
  await build({
    ...common,
    stdin: { contents, resolveDir: process.cwd(), sourcefile: `${pkg} (vendor)` },
    outfile: `dist/bundle/${vendorFile(pkg)}`,
  });
}

/**
 * Builds dist/bundle/one-shot.cjs and its vendor files. `options` are the ES module builds' own
 * (define, plugins, externals), without splitting; `import.meta.url` becomes the wrapper's
 * `__agent0_url` parameter (src/start/code-cache.ts), each file's own URL.
 */
export async function buildOneShot(options) {
  const used = new Map();
  const common = {
    ...options,
    format: "cjs",
    splitting: false,
    outdir: undefined,
    banner: undefined,
    define: { ...options.define, "import.meta.url": "__agent0_url" },
    // A script run by vm.Script has no loader for import(): the externals (sharp, ripgrep) are required.
    supported: { "dynamic-import": false },
  };
  await build({
    ...common,
    entryPoints: ["src/start/one-shot.ts"],
    outfile: "dist/bundle/one-shot.cjs",
    plugins: [...options.plugins, vendorFacades(used), builtinsOnce()],
  });
  for (const [pkg, specs] of used) await buildVendor(pkg, specs, common);
}
