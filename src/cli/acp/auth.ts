// What `initialize` offers as authentication. agent0 has no account: it talks to the model server
// (or engine) its config names. Two methods (agentclientprotocol/registry, AUTHENTICATION.md: at
// least one of Agent Auth or Terminal Auth):
// - "agent" kind: the agent handles it itself; `authenticate` with it succeeds at once;
// - "terminal" kind, offered only to a client that says it can run one (clientCapabilities.auth.terminal,
//   as the SDK's AuthMethodTerminal requires): the editor runs agent0's own command with `--setup`
//   appended (`agent0 acp --setup`), the first-run setup; exit 0 means done. It is never passed to
//   `authenticate`.
// Each says whether agent0 is already set up, and with what.
import type * as acp from "@agentclientprotocol/sdk";
import type { RunConfig } from "../../protocol/run-config.js";
import { setupLine } from "../setup-state.js";

export const LOCAL_AUTH_ID = "agent0-local";
export const SETUP_AUTH_ID = "agent0-setup";

export interface AuthState {
  config: Pick<RunConfig, "provider" | "model" | "host" | "baseUrl">;
  /** A model was chosen on purpose (setup-state.ts isSetUp). */
  setUp: boolean;
  /** The client runs terminal auth methods. */
  terminal: boolean;
}

/** The methods an editor may pick from; each says what agent0 will talk to, or that setup is still to do. */
export function authMethods(s: AuthState): acp.AuthMethod[] {
  const status = s.setUp
    ? `Set up: ${setupLine(s.config)}.`
    : `Not set up yet: agent0 will try ${setupLine(s.config)}.`;
  const methods: acp.AuthMethod[] = [
    {
      id: LOCAL_AUTH_ID,
      name: "Local model server (no account)",
      description: `${status} Change it with \`agent0 setup\` or in agent0's config.`,
    },
  ];
  if (s.terminal)
    methods.push({
      type: "terminal",
      id: SETUP_AUTH_ID,
      name: s.setUp ? "Change the model server or model" : "Set up agent0",
      description: `${status} Choose the model server (or the built-in engine) and the model in a terminal.`,
      args: ["--setup"],
    });
  return methods;
}

/** `authenticate`: the local method is always ready; any other id is refused, naming the one to use. */
export function authenticate(methodId: string): { ok: true } | { ok: false; error: string } {
  if (methodId === LOCAL_AUTH_ID) return { ok: true };
  if (methodId === SETUP_AUTH_ID)
    return { ok: false, error: `"${SETUP_AUTH_ID}" runs in a terminal (agent0 acp --setup), not through authenticate` };
  return { ok: false, error: `unknown auth method "${methodId}" (agent0 offers "${LOCAL_AUTH_ID}")` };
}
