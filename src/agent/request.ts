// What a model request is made of, in the one form every request of a session sends: the system
// message, the tool schemas and the conversation as the wire carries it. The loop, compaction's
// summary request (which extends the same prefix) and /compact all build it here, so their
// requests and their token counts agree.
import type { ConversationMessage } from "../protocol/conversation.js";
import type { RunConfig } from "../protocol/run-config.js";
import type { ToolDef } from "../tools/types.js";
import type { ToolSpec } from "../protocol/tool-spec.js";
import { withoutImages } from "../protocol/vision.js";
import { pairToolResults } from "../protocol/history.js";
import { jsonProtocolPrompt } from "./replies/json-protocol.js";
import { toJsonProtocolHistory } from "./replies/json-history.js";
import { smallWindow } from "../protocol/window.js";
import { smallWindowTools } from "../tools/small-window.js";

/** The system message: the config's prompt, and the JSON reply protocol's instructions when in use. */
export function systemMessage(config: RunConfig, specs: readonly ToolSpec[]): ConversationMessage {
  const text =
    smallWindow(config.numCtx, config.provider) && config.systemPromptLean
      ? config.systemPromptLean
      : config.systemPrompt;
  return {
    role: "system",
    content: config.toolProtocol === "json" ? `${text}\n\n${jsonProtocolPrompt([...specs])}` : text,
  };
}

/**
 * The conversation as it is sent: a call whose result never came gets one (a resumed session may
 * hold one), images go for a model that cannot read them, and the JSON protocol's history form.
 */
export function wireMessages(conversation: ConversationMessage[], config: RunConfig): ConversationMessage[] {
  const paired = pairToolResults(conversation);
  const seen = config.seesImages ? paired : withoutImages(paired);
  return config.toolProtocol === "json" ? toJsonProtocolHistory(seen) : seen;
}

/**
 * The tools a session sends: all of them, or a small window's lean set; a sub-agent's type names
 * its own. (A skill's allowed-tools does not shrink the list: calls outside it are refused when
 * they run.)
 */
export function sentTools(config: RunConfig, tools: ToolDef[], depth = 0): ToolDef[] {
  const names = depth > 0 ? config.toolFilter : undefined;
  const own = names ? tools.filter((t) => names.includes(t.name)) : tools;
  return smallWindow(config.numCtx, config.provider) ? smallWindowTools(own, config, names !== undefined) : own;
}

/** The tool schemas a request carries: none in the JSON protocol, whose tools are in the system prompt. */
export function wireToolSpecs<T extends readonly ToolSpec[] | undefined>(
  config: Pick<RunConfig, "toolProtocol">,
  specs: T,
): T | ToolSpec[] {
  return config.toolProtocol === "json" ? [] : specs;
}
