// The entry of a headless one-shot's own module graph (hl-*.js in the bundle, scripts/bundle.mjs),
// for a command line bin/agent0.js could read whole: the agent and the run are imported
// statically, so they come in a few files instead of the dozens the TUI's graph splits them into.
import * as agent from "../agent/serve.js";
import { startAgentEarly } from "../cli/agent-start.js";
import { guardProcess } from "../cli/app-process.js";
import { headless, type HeadlessFlags } from "../cli/headless.js";
import type { Flags } from "./options.js";

/**
 * Runs the headless command line bin/agent0.js read (start/options.ts readLaunch), then exits: the
 * run starts without main.ts and commander, which it does not need (~10 ms of a one-shot's start).
 */
export function oneShot(flags: Flags): Promise<never> {
  startAgentEarly(() => Promise.resolve(agent));
  guardProcess({ allOnThisThread: true }); // the agent is on this thread (cli/agent-start.ts)
  const read = flags as unknown as HeadlessFlags & { print: string };
  return headless(read.print, read);
}
