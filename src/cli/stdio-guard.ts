// `agent0 acp` and `agent0 mcp serve` speak their protocol on stdout: one stray line there (a
// library's console.log) would be a malformed message to the client. Console output goes to
// stderr instead, which clients show or log.
import { sanitize } from "../render/sanitize.js";
import { startup, type Startup } from "./startup.js";
import type { CliOptions } from "./config.js";

function keepStdoutForProtocol(): void {
  const toStderr = (...args: unknown[]) => console.error(...args);
  console.log = toStderr;
  console.info = toStderr;
  console.debug = toStderr;
}

/**
 * How both protocol servers start: stdout kept for the protocol, the settings read, their warnings
 * on stderr. Undefined (after saying why on stderr) when the settings cannot be used.
 */
export function protocolStartup(flags: CliOptions): Startup | undefined {
  keepStdoutForProtocol();
  let base: Startup;
  try {
    base = startup(flags, true);
  } catch (err) {
    process.stderr.write(sanitize(`agent0: ${(err as Error).message}\n`));
    return undefined;
  }
  for (const w of base.warnings) process.stderr.write(sanitize(`warning: ${w}\n`));
  return base;
}
