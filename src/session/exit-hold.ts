// The recorders holding a session in this process, closed when it exits: whatever ends the process
// (a fatal error, Ctrl+C in -p, a reader that closed the pipe) still writes what streamed and lets
// go of the lock.
/**
 * One "exit" listener for them all: an editor serving many sessions (agent0 acp) would pass Node's
 * listener limit with one each.
 */
const heldAtExit: Set<() => void> = new Set();

export function closeAtProcessExit(close: () => void): void {
  if (heldAtExit.size === 0 && !process.listeners("exit").includes(closeAllAtExit)) process.on("exit", closeAllAtExit);
  heldAtExit.add(close);
}

function closeAllAtExit(): void {
  for (const close of [...heldAtExit]) close();
}

export function releaseAtExit(close: () => void): void {
  heldAtExit.delete(close);
}
