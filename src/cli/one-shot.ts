// The entry of a headless one-shot's own module graph (hl-*.js in the bundle, scripts/bundle.mjs),
// for a command line bin/agent0.js could read whole: the agent and the run are imported
// statically, so they come in a few files instead of the dozens the TUI's graph splits them into.
import * as agent from "../agent/serve.js";
import { startAgentEarly } from "./agent-start.js";
import { headlessLaunch } from "./headless.js";
import type { Flags } from "./options.js";

/** Runs the headless command line bin/agent0.js read (cli/options.ts readLaunch), then exits. */
export function oneShot(flags: Flags): Promise<never> {
  startAgentEarly(() => Promise.resolve(agent));
  return headlessLaunch(flags);
}
