// The JSON reply protocol as a JSON schema, for servers that decode under it (Ollama's `format`,
// response_format json_schema on llama.cpp / vLLM / SGLang / LM Studio, a grammar on the embedded
// engine): a reply that follows it is always one object json-protocol.ts reads.

import type { ToolSpec } from "../../protocol/tool-spec.js";
import { RESPONSE_TOOL } from "./json-protocol.js";

/** The name of the call-only schema (a native-tools model's corrective step). */
export const CALL_CONSTRAINT = "agent0_tool_call";

export interface ReplyConstraint {
  name: string;
  schema: Record<string, unknown>;
}

/**
 * A choice over this run's tools, each `{"thoughts": [...], "tool_name": <const>, "tool_args":
 * <its schema>}`, plus the final answer (`response` with `{"text"}`) unless `callsOnly` (the
 * corrective retry of a native-tools model: it must call). Built once per tool set by its caller.
 */
export function protocolConstraint(tools: readonly ToolSpec[], callsOnly = false): ReplyConstraint {
  const choices = tools.map((t) => branch(t.name, argsSchema(t.parameters)));
  if (!callsOnly) {
    const text = { type: "object", properties: { text: { type: "string" } }, required: ["text"] };
    choices.push(branch(RESPONSE_TOOL, { ...text, additionalProperties: false }));
  }
  return {
    name: callsOnly ? CALL_CONSTRAINT : "agent0_reply",
    schema: choices.length === 1 ? choices[0]! : { anyOf: choices },
  };
}

function branch(name: string, args: Record<string, unknown>): Record<string, unknown> {
  return {
    type: "object",
    properties: {
      thoughts: { type: "array", items: { type: "string" } },
      tool_name: { type: "string", const: name },
      tool_args: args,
    },
    required: ["thoughts", "tool_name", "tool_args"],
    additionalProperties: false,
  };
}

/**
 * A tool's own schema, minus what grammar converters refuse: `$schema` (llama.cpp's
 * json-schema-to-grammar and Ollama pass unknown keywords, but OpenAI's strict mode refuses it).
 */
function argsSchema(parameters: Record<string, unknown>): Record<string, unknown> {
  const { $schema: _ignored, ...rest } = parameters;
  return { type: "object", ...rest };
}
