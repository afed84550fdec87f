// The facts a session's events report that its later runs must carry: the model and its window,
// the tool protocol the session moved to, whether the model thinks and sees, and the user's
// "always" answers. One rule for every driver: the TUI folds them into its Model's config
// (ui/update/agent.ts), a hosted session (`-p`, ACP, `mcp serve`: cli/hosted-session.ts) into
// its own; so a session asks the server about its model once, and an "always" holds for its
// later runs the same way whoever drives it.
import type { RunEvent } from "./agent-event.js";
import type { RunConfig } from "./run-config.js";
import { chooseToolProtocol } from "./tool-protocol.js";
import { seesImages } from "./vision.js";

export type SessionFacts = Pick<
  RunConfig,
  "model" | "numCtx" | "windowUnknown" | "slots" | "toolProtocol" | "think" | "seesImages" | "vision" | "allowedTools"
>;

/** Folds one event's facts into the config the session's next run is stamped from (in place). */
export function keepSessionFacts(config: SessionFacts, event: RunEvent): void {
  switch (event.type) {
    case "model-info":
      // The lookup's answer: a later run with numCtx set does not ask again (agent/model-info.ts).
      config.model = event.model;
      config.numCtx = event.numCtx;
      keepWindowUnknown(config, event.windowUnknown);
      if (event.slots) config.slots = event.slots;
      else delete config.slots;
      if (chooseToolProtocol(event.capabilities) === "json") config.toolProtocol = "json";
      // The agent said so once (a notice); every later run must not ask for it (Ollama answers 400).
      if (event.capabilities.length > 0 && !event.capabilities.includes("thinking")) delete config.think;
      config.seesImages = seesImages(config.vision, event.capabilities);
      break;
    case "usage":
      // The agent's window: smaller than before when the server was found to cut the prompt.
      if (event.contextWindow > 0) config.numCtx = event.contextWindow;
      keepWindowUnknown(config, event.windowUnknown);
      break;
    case "tool-protocol":
      // Kept by the driver, so a restarted agent does not try the native protocol again.
      config.toolProtocol = event.protocol;
      break;
    case "allowed":
      // The approver recorded the user's "always" for its run; the session's later runs carry it.
      if (!config.allowedTools.includes(event.key)) config.allowedTools.push(event.key);
      break;
    default:
      break;
  }
}

/**
 * Another model from the next run on: what the old one's lookup said (window, protocol, sight) is
 * forgotten, so the next run asks about the new one. `/model`, an editor's choice, `-p --yes`.
 */
export function newModel(
  config: SessionFacts & Pick<RunConfig, "provider">,
  model: string,
  provider?: RunConfig["provider"],
): void {
  if (provider) config.provider = provider;
  config.model = model;
  config.numCtx = 0;
  config.toolProtocol = "native";
  delete config.windowUnknown;
  delete config.slots;
  delete config.seesImages;
}

/** A window no server reported stays unknown until a reply's counts or an overflow tell it. */
function keepWindowUnknown(config: SessionFacts, unknown: boolean | undefined): void {
  if (unknown) config.windowUnknown = true;
  else delete config.windowUnknown;
}
