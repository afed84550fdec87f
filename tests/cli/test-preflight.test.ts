// Issue 39 §1: `npm test` starts with scripts/test-preflight.mjs, which stops in the first second
// naming what a fresh machine lacks and the line that installs it, instead of a test failing minutes
// later. Run here with a PATH that holds every program it looks for but tmux and bubblewrap (each a
// link to this machine's own), and a stand-in apt-get so the Debian line is the one it gives.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

/** Where `program` is on this machine's PATH (a file: `command -v` would name a shell builtin). */
function which(program: string): string {
  for (const dir of (process.env.PATH ?? "").split(path.delimiter)) {
    const file = path.join(dir, program);
    if (dir && fs.existsSync(file) && fs.statSync(file).isFile()) return file;
  }
  throw new Error(`${program} is not on this machine's PATH`);
}

/** A PATH of links to this machine's `programs`, and a do-nothing apt-get. */
function pathWith(programs: string[]): string {
  const bin = fs.mkdtempSync(path.join(os.tmpdir(), "agent0-preflight-"));
  dirs.push(bin);
  for (const p of programs) fs.symlinkSync(which(p), path.join(bin, p));
  fs.writeFileSync(path.join(bin, "apt-get"), "#!/bin/sh\nexit 0\n", { mode: 0o755 });
  return bin;
}

function preflight(PATH: string) {
  return spawnSync(process.execPath, ["scripts/test-preflight.mjs"], {
    encoding: "utf8",
    env: { ...process.env, PATH },
    timeout: 20_000,
  });
}

// `true`: what the preflight has bwrap run to see that it can make a namespace.
const ALWAYS = ["sh", "true", "git", "python3", "ps", "pgrep"];

describe.runIf(process.platform === "linux")("the tests' preflight", () => {
  it("passes where every program is there", () => {
    const r = preflight(pathWith([...ALWAYS, "tmux", "bwrap"]));
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
  });

  it("without tmux and bubblewrap: names both, gives the one apt-get line, exit 1", () => {
    const r = preflight(pathWith(ALWAYS));
    expect(r.status).toBe(1);
    expect(r.stderr).toContain("  tmux: end-to-end tests drive the app in a real terminal");
    expect(r.stderr).toContain("  bwrap: the sandbox and pid-namespace tests");
    expect(r.stderr).toMatch(/Install them with: {2}(sudo )?apt-get install -y tmux bubblewrap\n$/);
  });
});
