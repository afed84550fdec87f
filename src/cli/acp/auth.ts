// What `initialize` offers as authentication. agent0 has no account: it talks to the model server
// (or engine) its config names, so the one method is ACP's "agent" kind — the agent handles it
// itself — and `authenticate` with it succeeds at once. The ACP registry lists only agents that
// return at least one method (agentclientprotocol/registry, AUTHENTICATION.md).
import type * as acp from "@agentclientprotocol/sdk";
import type { RunConfig } from "../../protocol/run-config.js";

export const LOCAL_AUTH_ID = "agent0-local";

/** The methods an editor may pick from; the description says what agent0 will talk to. */
export function authMethods(config: Pick<RunConfig, "provider" | "model" | "host">): acp.AuthMethod[] {
  return [
    {
      id: LOCAL_AUTH_ID,
      name: "Local model server (no account)",
      description: `Set up: ${config.provider} at ${config.host}, model ${config.model}. Change it in agent0's config.`,
    },
  ];
}

/** `authenticate`: the local method is always ready; any other id is refused, naming the ones offered. */
export function authenticate(methodId: string): { ok: true } | { ok: false; error: string } {
  if (methodId === LOCAL_AUTH_ID) return { ok: true };
  return { ok: false, error: `unknown auth method "${methodId}" (agent0 offers "${LOCAL_AUTH_ID}")` };
}
