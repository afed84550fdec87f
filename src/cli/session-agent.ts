// The agent of one hosted session (cli/hosted-session.ts): agent/serve.ts in a worker thread of
// its own, the TUI's way, so that several sessions run side by side in one process.
import { AgentHandle } from "../ui/runtime/agent-handle.js";
import type { OpenAgent } from "./hosted-session.js";

export const openWorkerAgent: OpenAgent = (onEvent) => new AgentHandle(onEvent);
