// The agent of a hosted session (cli/hosted-session.ts): an agent session (agent/session.ts) on
// this thread, as many as the clients open. Commands and events are copied as a port would copy
// them, and events arrive on a later turn, so neither side holds an object the other changes.
// The client's editor, when it offers them, is the tools' file system and terminal.
import { createAgentSession } from "../agent/session.js";
import { createProvider } from "../providers/index.js";
import { toolsFor } from "../tools/catalog.js";
import type { ClientFiles, ClientTerminal, ToolDef } from "../tools/types.js";
import { Checkpoints } from "../session/checkpoints.js";
import type { OpenAgent } from "./hosted-session.js";

/** What an editor gives the tools, for cli/acp/client-io.ts to build. */
export type { ClientFiles, ClientTerminal, TerminalOutcome } from "../tools/types.js";

export interface ClientIo {
  files?: ClientFiles;
  terminal?: ClientTerminal;
}

/** The tools, with the client's file system and terminal in every call's context. */
function throughClient(tools: ToolDef[], io: ClientIo): ToolDef[] {
  if (!io.files && !io.terminal) return tools;
  return tools.map((tool) => ({ ...tool, run: (args, ctx) => tool.run(args, { ...ctx, ...io }) }));
}

export function openAgentSession(io: ClientIo = {}): OpenAgent {
  return (onEvent) => {
    const session = createAgentSession({
      post: (e) => {
        const copy = structuredClone(e);
        setImmediate(() => onEvent(copy));
      },
      createProvider,
      toolsFor: (config, mcp, agentTypes) => throughClient(toolsFor(config, mcp, agentTypes), io),
      checkpoints: (dir) => new Checkpoints(dir),
    });
    return {
      send: (cmd) => session.handle(structuredClone(cmd)),
      close: () => session.close(),
    };
  };
}
