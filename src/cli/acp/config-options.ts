// ACP's session config options (agentclientprotocol.com/protocol/session-config-options): the
// model, the thinking setting and the permission mode as selectors an editor shows in its own UI.
// Pure: built from the session's settings and the server's own model list; a change the editor
// asks for is read here and applied by the session from its next prompt.
import type * as acp from "@agentclientprotocol/sdk";
import { THINK_LEVELS, type PermissionMode, type ThinkLevel } from "../../protocol/run-config.js";
import { MODE_NAMES } from "./modes.js";

/** Thinking as a selector: the server's default, or one of the levels `--think` takes (`think` in the config). */
const THINKING: readonly { value: string; name: string; think: ThinkLevel | undefined }[] = [
  { value: "default", name: "Server default", think: undefined },
  ...THINK_LEVELS.map((level) => ({ value: level, name: level[0]!.toUpperCase() + level.slice(1), think: level })),
];

export interface ConfigState {
  model: string;
  /** The server's models (may be empty when it did not answer): the current one is always offered. */
  models: readonly string[];
  think: ThinkLevel | undefined;
  mode: PermissionMode;
  modes: readonly PermissionMode[];
}

export type ConfigChange =
  | { kind: "model"; model: string }
  | { kind: "thinking"; think: ThinkLevel | undefined }
  | { kind: "mode"; mode: PermissionMode };

export function configOptions(s: ConfigState): acp.SessionConfigOption[] {
  const models = s.models.includes(s.model) ? s.models : [s.model, ...s.models];
  return [
    {
      type: "select",
      id: "model",
      name: "Model",
      category: "model",
      description: "The model the next prompt is sent to (the server's own list)",
      currentValue: s.model,
      options: models.map((m) => ({ value: m, name: m })),
    },
    {
      type: "select",
      id: "thinking",
      name: "Thinking",
      category: "thought_level",
      description: "Ask the model to reason before answering",
      currentValue: THINKING.find((t) => t.think === s.think)!.value,
      options: THINKING.map(({ value, name }) => ({ value, name })),
    },
    {
      type: "select",
      id: "mode",
      name: "Mode",
      category: "mode",
      description: "When agent0 asks before acting",
      currentValue: s.mode,
      options: s.modes.map((m) => ({ value: m, name: MODE_NAMES[m].name, description: MODE_NAMES[m].description })),
    },
  ];
}

/** What `session/set_config_option` asks for, or why it cannot be done (naming what can). */
export function readChange(
  s: ConfigState,
  configId: string,
  value: string | boolean,
): { ok: true; change: ConfigChange } | { ok: false; error: string } {
  const option = configOptions(s).find((o) => o.id === configId);
  if (!option || option.type !== "select")
    return { ok: false, error: `unknown config option "${configId}" (agent0 offers model, thinking, mode)` };
  const values = (option.options as acp.SessionConfigSelectOption[]).map((o) => o.value);
  if (typeof value !== "string" || !values.includes(value))
    return { ok: false, error: `"${String(value)}" is not a value of ${configId}: one of ${values.join(", ")}` };
  switch (configId) {
    case "model":
      return { ok: true, change: { kind: "model", model: value } };
    case "thinking":
      return { ok: true, change: { kind: "thinking", think: THINKING.find((t) => t.value === value)!.think } };
    default:
      return { ok: true, change: { kind: "mode", mode: value as PermissionMode } };
  }
}
