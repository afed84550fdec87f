// One line at the TUI's start when a protection the user relies on does not hold on this machine:
// commands run without a pid namespace of their own (no bubblewrap, or namespaces refused). Told
// once per machine: a marker in agent0's data folder, named after the host, keeps it from coming back.
import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

/** Whether a command can get a pid namespace here (the same bwrap call as tools/shell/contain.ts), and why not. */
function namespaceProblem(): Promise<string | undefined> {
  if (process.platform !== "linux") return Promise.resolve(`${process.platform} has no bubblewrap`);
  const args = ["--bind", "/", "/", "--dev-bind", "/dev", "/dev", "--proc", "/proc", "--unshare-pid", "true"];
  return new Promise((resolve) =>
    execFile("bwrap", args, { timeout: 5000 }, (err, _out, stderr) => {
      if (!err) return resolve(undefined);
      const code = (err as NodeJS.ErrnoException).code;
      resolve(code === "ENOENT" ? "bubblewrap is not installed" : String(stderr).trim() || err.message);
    }),
  );
}

/** The line to show at start, once per machine; undefined when all holds or it was told before. */
export async function protectionNotice(dataDir: string): Promise<string | undefined> {
  const marker = path.join(dataDir, "told", `no-pid-namespace-${os.hostname()}`);
  if (fs.existsSync(marker)) return undefined;
  const problem = await namespaceProblem();
  if (!problem) return undefined;
  try {
    fs.mkdirSync(path.dirname(marker), { recursive: true });
    fs.writeFileSync(marker, `${problem}\n`);
  } catch {
    // Not remembered: said again next time, which is better than never.
  }
  return (
    `Commands run here without a pid namespace of their own (${problem}): what a command leaves ` +
    "running is ended at quit, but a child that clears its environment (env -i) can outlive agent0. " +
    "`agent0 doctor` tells what holds here; this is said once per machine."
  );
}
