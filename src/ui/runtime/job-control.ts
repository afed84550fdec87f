// Ctrl+Z as a cooked terminal gives it: the process stops (SIGTSTP) and the shell takes the
// terminal; `fg` sends SIGCONT. The terminal's modes are given back first (loop.ts withTerminal).
import { readFileSync } from "node:fs";

/** Process group and session of a process, from /proc/<pid>/stat (after the command's closing parenthesis). */
function groupOf(pid: number | "self"): { ppid: number; pgrp: number; session: number } | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "latin1");
    const [, ppid, pgrp, session] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return { ppid: Number(ppid), pgrp: Number(pgrp), session: Number(session) };
  } catch {
    return null;
  }
}

/**
 * Whether a stop would ever be undone: Linux discards SIGTSTP for an orphaned process group (no
 * member's parent is in another group of the same session: no shell to `fg` it), as when the app
 * runs straight under a terminal emulator or a shell without job control. Where /proc is missing
 * (macOS), the stop is tried.
 */
export function jobControlHere(): boolean {
  if (process.platform === "win32") return false;
  const self = groupOf("self");
  if (!self) return true;
  // Walk up through our own group to the first ancestor outside it: our shell, if there is one.
  let parent = groupOf(self.ppid);
  for (let hops = 0; parent && parent.pgrp === self.pgrp && hops < 64; hops++) parent = groupOf(parent.ppid);
  return parent !== null && parent.session === self.session;
}

/** Stops this process (SIGTSTP); resolves once `fg` sends SIGCONT. */
export function stopUntilContinued(): Promise<void> {
  return new Promise((resolve) => {
    process.once("SIGCONT", () => resolve());
    process.kill(process.pid, "SIGTSTP");
  });
}
