// The agent of a hosted session (cli/hosted-session.ts): an agent session (agent/session.ts) on
// this thread, as many as the clients open. Commands and events are copied as a port would copy
// them, and events arrive on a later turn, so neither side holds an object the other changes.
// The client's editor, when it offers them, is the tools' file system and terminal.
import { createAgentSession } from "../agent/session.js";
import { createProvider } from "../providers/index.js";
import { toolsFor } from "../tools/catalog.js";
import type { ClientIo } from "../tools/types.js";
import { Checkpoints } from "../session/checkpoints.js";
import type { OpenAgent } from "./hosted-session.js";

/** What an editor gives the tools, for cli/acp/client-io.ts to build. */
export type { ClientFiles, ClientIo, ClientTerminal, TerminalOutcome } from "../tools/types.js";

export function openAgentSession(client: ClientIo = {}): OpenAgent {
  return (onEvent) => {
    const session = createAgentSession({
      post: (e) => {
        const copy = structuredClone(e);
        setImmediate(() => onEvent(copy));
      },
      createProvider,
      toolsFor,
      checkpoints: (dir) => new Checkpoints(dir),
      client,
    });
    return {
      send: (cmd) => session.handle(structuredClone(cmd)),
      close: () => session.close(),
    };
  };
}
