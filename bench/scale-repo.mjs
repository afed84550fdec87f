// A generated git repository of many files, made once in the temp folder and reused by later runs
// (`npm run bench -- scale`, and the 50,000-file end-to-end test). The files are plain files of
// sixteen contents (not hard links: a file with names outside the project is not read as the
// project's, tools/files/links.ts). Git learns them without a million `git add`s: the
// sixteen contents are hashed once
// (`git hash-object -w`), the index is fed path lines (`git update-index --index-info`), refreshed
// once so its stat data is current, and committed with `write-tree` / `commit-tree`.
//
// Layout: pkgNNNN/src/modM/fileK.ts (10 modules of 100 files each per package), so a deep path
// like pkg0512/src/mod7/file42.ts exists in every size. One file in every 16 holds "TODO(scale)".
import { execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const PER_MODULE = 100;
const MODULES = 10;
const PER_PACKAGE = PER_MODULE * MODULES;
const VERSION = 2;

/** The path of file number `i` (0-based). */
export function scalePath(i) {
  const pkg = Math.floor(i / PER_PACKAGE);
  const mod = Math.floor(i / PER_MODULE) % MODULES;
  return `pkg${String(pkg).padStart(4, "0")}/src/mod${mod}/file${i % PER_MODULE}.ts`;
}

/** Sixteen contents; file i gets content i % 16. */
function content(kind) {
  const lines = [`// module kind ${kind}`];
  for (let l = 0; l < 20; l++) lines.push(`export const value${l} = compute(${kind}, ${l});`);
  if (kind === 3) lines.push("// TODO(scale): this line is what a grep over the whole tree finds");
  return `${lines.join("\n")}\n`;
}

const git = (cwd, args, input) =>
  execFileSync("git", args, {
    cwd,
    input,
    encoding: "utf8",
    maxBuffer: 1 << 30,
    env: { ...process.env, GIT_AUTHOR_DATE: "2026-01-01T00:00:00Z", GIT_COMMITTER_DATE: "2026-01-01T00:00:00Z" },
  });

/** Streams `lines` into `git <args>` without holding them as one string. */
function gitStdin(cwd, args, lines) {
  return new Promise((resolve, reject) => {
    const child = spawn("git", args, { cwd, stdio: ["pipe", "ignore", "inherit"] });
    child.on("error", reject);
    child.on("close", (code) => (code === 0 ? resolve() : reject(new Error(`git ${args[0]} exited ${code}`))));
    let i = 0;
    const pump = () => {
      while (i < lines.count) {
        if (!child.stdin.write(lines.at(i++))) return void child.stdin.once("drain", pump);
      }
      child.stdin.end();
    };
    pump();
  });
}

/**
 * The repository of `files` files under the temp folder, made on first use. `log` reports progress.
 * Returns its path; a half-made one (no `.complete` marker) is removed and made again.
 */
export async function scaleRepo(files, log = () => {}) {
  const root = path.join(os.tmpdir(), `agent0-scale-v${VERSION}-${files}`);
  const repo = path.join(root, "repo");
  if (fs.existsSync(path.join(root, ".complete"))) return repo;
  fs.rmSync(root, { recursive: true, force: true });
  fs.mkdirSync(repo, { recursive: true });
  const started = Date.now();
  git(repo, ["init", "-q", "-b", "main"]);
  git(repo, ["config", "user.email", "bench@agent0.invalid"]);
  git(repo, ["config", "user.name", "bench"]);
  const texts = Array.from({ length: 16 }, (_, k) => content(k));
  const blobs = texts.map((t) => git(repo, ["hash-object", "-w", "--stdin"], t).trim());
  for (let i = 0; i < files; i++) {
    const rel = scalePath(i);
    if (i % PER_MODULE === 0) fs.mkdirSync(path.join(repo, path.dirname(rel)), { recursive: true });
    fs.writeFileSync(path.join(repo, rel), texts[i % 16]);
    if (i % 100_000 === 99_999) log(`  ${i + 1} files written (${((Date.now() - started) / 1000).toFixed(0)} s)`);
  }
  fs.writeFileSync(path.join(repo, ".gitignore"), "build/\n*.log\n");
  fs.mkdirSync(path.join(repo, "build"));
  fs.writeFileSync(path.join(repo, "build", "out.js"), "ignored\n");
  await gitStdin(repo, ["update-index", "--index-info"], {
    count: files,
    at: (i) => `100644 ${blobs[i % 16]}\t${scalePath(i)}\n`,
  });
  git(repo, ["add", ".gitignore"]);
  // The index was fed without stat data: one refresh, so later `git status` calls compare stats.
  git(repo, ["update-index", "-q", "--refresh"]);
  const tree = git(repo, ["write-tree"]).trim();
  const commit = git(repo, ["commit-tree", tree, "-m", "generated"]).trim();
  git(repo, ["update-ref", "refs/heads/main", commit]);
  fs.writeFileSync(path.join(repo, "untracked-note.md"), "not added yet\n");
  fs.writeFileSync(path.join(root, ".complete"), `${files}\n`);
  log(`  repository of ${files} files made in ${((Date.now() - started) / 1000).toFixed(0)} s: ${repo}`);
  return repo;
}

if (process.argv[1] && path.resolve(process.argv[1]) === new URL(import.meta.url).pathname) {
  const n = Number(process.argv[2] ?? 1_000_000);
  console.log(await scaleRepo(n, (s) => process.stderr.write(`${s}\n`)));
}
