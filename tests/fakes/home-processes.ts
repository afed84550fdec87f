// The processes a sandbox started, found by the HOME they were given: the tests' and the bench's
// sandboxes stop them before removing the folder (an app that outlived its terminal, or a child it
// left, would go on writing into it and leave it behind).
import fs from "node:fs";

/** SIGKILLs every process whose environment names `home` as its HOME (the app and all it started). */
export function killProcessesWithHome(home: string): void {
  const mark = `HOME=${home}\0`;
  for (const pid of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(pid) || Number(pid) === process.pid) continue;
    let environ: string;
    try {
      environ = fs.readFileSync(`/proc/${pid}/environ`, "latin1");
    } catch {
      continue; // gone, or not ours to read
    }
    if (!environ.startsWith(mark) && !environ.includes(`\0${mark}`)) continue;
    try {
      process.kill(Number(pid), "SIGKILL");
    } catch {
      // gone meanwhile
    }
  }
}

/**
 * Removes a sandbox folder: its processes first, then the folder, a write racing the removal
 * retried for a few seconds.
 */
export function removeSandbox(base: string, home: string): void {
  killProcessesWithHome(home);
  fs.rmSync(base, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
}
