// What every launch of the app sets up on its process, whether main.ts runs it (commander read the
// command line) or bin/agent0.js hands a headless run straight to cli/headless.ts.
import { sanitize } from "../render/sanitize.js";
import { killTagged, tagThisApp, watchChildStarts } from "./tool-use.js";
import { restoreTerminal } from "../ui/runtime/restore.js";
import { hideOwnSecrets, type OwnEnviron } from "../safety/own-environ.js";

/** What a shell reports for a program ended by a closed pipe (128 + SIGPIPE). */
export const SIGPIPE_EXIT = 141;

/** A fatal error: the terminal given back, the message on stderr, exit code 1. */
export function fail(message: string): never {
  restoreTerminal();
  process.stderr.write(sanitize(`agent0: ${message}\n`));
  process.exit(1);
}

/**
 * Tags the app's processes, ends them at exit and on SIGHUP/SIGTERM, reports crashes, and clears
 * the secret values of its starting environment (returned: whether that worked here).
 * `allOnThisThread`: no worker starts processes (a headless run's agent is on this thread), so a
 * run that started none has none to end.
 */
export function guardProcess({ allOnThisThread = false } = {}): OwnEnviron {
  // Every process the app starts carries this tag, so quitting (or a closed terminal) ends them all.
  tagThisApp();
  // Before any child runs: what it could read of our starting environment holds no secret value.
  const environ = hideOwnSecrets();
  const started = allOnThisThread ? watchChildStarts() : () => true;
  const endChildren = () => started() && killTagged();
  for (const sig of ["SIGHUP", "SIGTERM"] as const)
    process.on(sig, () => {
      endChildren();
      restoreTerminal();
      process.exit(sig === "SIGHUP" ? 129 : 143);
    });
  process.on("exit", endChildren);

  // The reader of our output went away (`agent0 sessions | head -1`): a closed pipe ends a Unix
  // tool quietly. A -p run has its own handler (cli/print.ts), which saves the session first.
  process.stdout.on("error", (err: NodeJS.ErrnoException) => {
    if (process.stdout.listenerCount("error") > 1) return;
    if (err.code === "EPIPE") process.exit(SIGPIPE_EXIT);
    throw err; // anything else is the unexpected error it was before this listener
  });
  process.on("uncaughtException", (err) => fail(`unexpected error: ${err.stack ?? err.message}`));
  process.on("unhandledRejection", (err) => fail(`unexpected error: ${(err as Error)?.stack ?? String(err)}`));
  return environ;
}
