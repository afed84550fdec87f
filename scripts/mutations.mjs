// Issue 40: every rule has a test that fails without it. For each row of tests/mutations/table.json,
// a scratch copy of the checkout gets the mutation (the rule removed) and its test is run: it must
// go red. Prints one line per row and exits 1 if any mutation survived. Not part of `npm test`
// (each row is a vitest run): `node scripts/mutations.mjs [--only id]`.
import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const { rows } = JSON.parse(fs.readFileSync(path.join(root, "tests", "mutations", "table.json"), "utf8"));
const only = process.argv.includes("--only") ? process.argv[process.argv.indexOf("--only") + 1] : undefined;

/** A copy of the tracked files (as they are in the working tree), sharing node_modules. */
function scratch() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "agent0-mutant-"));
  const files = execFileSync("git", ["ls-files", "-z"], { cwd: root, encoding: "utf8" }).split("\0").filter(Boolean);
  for (const f of files) {
    if (!fs.existsSync(path.join(root, f))) continue;
    fs.mkdirSync(path.dirname(path.join(dir, f)), { recursive: true });
    fs.copyFileSync(path.join(root, f), path.join(dir, f));
  }
  fs.symlinkSync(path.join(root, "node_modules"), path.join(dir, "node_modules"));
  return dir;
}

let survived = 0;
for (const row of rows) {
  if (only && row.id !== only) continue;
  const dir = scratch();
  try {
    const file = path.join(dir, row.file);
    const text = fs.readFileSync(file, "utf8");
    const count = text.split(row.find).length - 1;
    if (count !== 1) {
      console.log(`✗ ${row.id}: the mutation's text occurs ${count} times in ${row.file} (the table is stale)`);
      survived++;
      continue;
    }
    // A function, so `$&` or `$1` in a replacement stays as written.
    fs.writeFileSync(
      file,
      text.replace(row.find, () => row.replace),
    );
    if (row.build && spawnSync("npm", ["run", "build"], { cwd: dir, stdio: "ignore" }).status !== 0) {
      // A mutant the compiler refuses proves nothing about the tests: the row must be mended.
      console.log(`✗ ${row.id}: the mutant does not build (tsc refuses the replacement)`);
      survived++;
      continue;
    }
    // The engine the engine tests load is shared like node_modules (tests/engine/engine-dir.ts), so a
    // row does not install it again into its scratch copy.
    const env = {
      ...process.env,
      AGENT0_ENGINE_DIR: process.env.AGENT0_ENGINE_DIR ?? path.join(root, ".engine-cache"),
    };
    const run = spawnSync("npx", ["vitest", "run", row.test], { cwd: dir, encoding: "utf8", env });
    if (run.status === 0) {
      console.log(`✗ ${row.id}: ${row.test} stays green without "${row.rule}"`);
      survived++;
    } else {
      const failed = /Tests\s+(\d+) failed/.exec(run.stdout.replace(/\x1b\[[0-9;]*m/g, ""))?.[1] ?? "?";
      console.log(`✓ ${row.id}: ${row.test} goes red (${failed} failed) without "${row.rule}"`);
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
process.exit(survived ? 1 : 0);
