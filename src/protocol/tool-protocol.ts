// Part of protocol/: how a model is asked to call tools, decided the same way on both threads
// (the worker when it asks the server about the model; the UI for /context and the model picker).
import type { ProviderName, ToolProtocol } from "./run-config.js";

/**
 * A model whose server says it cannot call tools is driven by the JSON reply protocol; every
 * other one gets native tool calls. An empty capability list means the server did not say.
 */
export function chooseToolProtocol(capabilities: readonly string[]): ToolProtocol {
  return capabilities.length > 0 && !capabilities.includes("tools") ? "json" : "native";
}

/**
 * Native calls are also recovered from the reply's text, except from Anthropic's API, whose
 * models never write calls as text (and whose text may quote call markup on purpose).
 */
export function recoversTextCalls(provider: ProviderName, protocol: ToolProtocol): boolean {
  return protocol === "native" && provider !== "anthropic";
}

export function toolProtocolLabel(provider: ProviderName, protocol: ToolProtocol): string {
  if (protocol === "json") return "JSON reply protocol";
  return recoversTextCalls(provider, protocol) ? "native + text recovery" : "native";
}
