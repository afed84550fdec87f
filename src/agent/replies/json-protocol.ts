// The JSON reply protocol for models without native tool calling (Agent Zero's):
// every reply is one object {"thoughts": [...], "tool_name": "...", "tool_args": {...}},
// and the answer to the user is the "response" tool.

import { extractJsonObject, isRecord } from "../../providers/lenient-json.js";
import { readArgs } from "./tool-call-shape.js";
import type { ToolSpec } from "../../protocol/tool-spec.js";

export const RESPONSE_TOOL = "response";

export type JsonProtocolReply =
  | { kind: "tool"; thoughts: string[]; name: string; args: Record<string, unknown> }
  | { kind: "response"; thoughts: string[]; text: string }
  | { kind: "invalid"; error: string };

/** The system-prompt addendum that teaches the protocol and lists the tools. */
export function jsonProtocolPrompt(tools: readonly ToolSpec[]): string {
  const example = tools[0];
  return [
    "# How to reply",
    "You cannot call tools directly. Every reply you write must be exactly one JSON object and nothing else:",
    "",
    '{"thoughts": ["short reasoning", "..."], "tool_name": "<tool name>", "tool_args": {<arguments>}}',
    "",
    "- `thoughts`: a list of short strings with your reasoning.",
    "- `tool_name`: one of the tools listed below.",
    "- `tool_args`: an object with the tool's arguments, exactly as described below.",
    "After each tool call you get the tool's result in the next message; then reply with the next JSON object.",
    "",
    `To answer the user (when the task is done, or to ask a question), use the tool "${RESPONSE_TOOL}":`,
    "",
    `{"thoughts": ["..."], "tool_name": "${RESPONSE_TOOL}", "tool_args": {"text": "your answer, in markdown"}}`,
    "",
    ...(example ? ["Example:", "", exampleCall(example), ""] : []),
    "Write no text before or after the object and no code fences. Use one tool per reply.",
    "",
    "# Tools",
    "",
    ...tools.map(describeTool),
    `## ${RESPONSE_TOOL}`,
    "Answer the user and end your turn.",
    "Arguments:",
    "- text (string, required): the answer",
  ].join("\n");
}

/** Read a reply leniently: code fences, text around the object, trailing commas, single quotes. */
export function parseJsonProtocolReply(text: string, toolNames: readonly string[]): JsonProtocolReply {
  const found = extractJsonObject(text.replace(/^\s*<think>[\s\S]*?<\/think>/, ""));
  if (!found) {
    return { kind: "invalid", error: text.trim() === "" ? "the reply was empty" : "the reply held no JSON object" };
  }
  const obj = found.value;
  const thoughts = readThoughts(obj.thoughts ?? obj.thought ?? obj.reasoning);
  const nameValue = obj.tool_name ?? obj.tool ?? obj.name ?? obj.action;
  const name = typeof nameValue === "string" ? nameValue.trim() : "";
  if (name === "") return { kind: "invalid", error: 'the JSON object had no "tool_name"' };
  const rawArgs = obj.tool_args ?? obj.args ?? obj.arguments ?? obj.parameters ?? obj.tool_input ?? obj.action_input;
  if (name === RESPONSE_TOOL) {
    const answer = responseText(rawArgs);
    return answer === undefined
      ? { kind: "invalid", error: `"${RESPONSE_TOOL}" needs "tool_args": {"text": "..."}` }
      : { kind: "response", thoughts, text: answer };
  }
  if (!toolNames.includes(name)) {
    return {
      kind: "invalid",
      error: `unknown tool "${name}"; the tools are: ${[...toolNames, RESPONSE_TOOL].join(", ")}`,
    };
  }
  const args = readArgs(rawArgs);
  if (!args) return { kind: "invalid", error: '"tool_args" must be a JSON object' };
  return { kind: "tool", thoughts, name, args };
}

/**
 * The one corrective user message after an unusable reply: what was wrong and the exact
 * format to use. `json` for the JSON protocol, `native` for a model with tool calling.
 */
export function correctiveMessage(kind: "json" | "native", toolNames: readonly string[], error: string): string {
  const tool = toolNames[0] ?? "read_file";
  const list = toolNames.join(", ");
  if (kind === "json") {
    return [
      `Your last reply could not be used: ${error}.`,
      "Reply with exactly one JSON object and nothing else, in this format:",
      `{"thoughts": ["..."], "tool_name": "${tool}", "tool_args": {"<argument>": "<value>"}}`,
      `To answer the user: {"thoughts": ["..."], "tool_name": "${RESPONSE_TOOL}", "tool_args": {"text": "your answer"}}`,
      `Tools: ${[...toolNames, RESPONSE_TOOL].join(", ")}.`,
    ].join("\n");
  }
  return [
    `Your last reply could not be used: ${error}.`,
    "To use a tool, make a tool call through the tool-calling interface: the function name and its arguments as a JSON object,",
    `e.g. name "${tool}" with arguments {"<argument>": "<value>"}. Do not write the call into your text.`,
    `Tools: ${list}.`,
    "To answer the user, reply with plain text and no tool call.",
  ].join("\n");
}

function readThoughts(raw: unknown): string[] {
  if (typeof raw === "string") return raw.trim() === "" ? [] : [raw];
  if (Array.isArray(raw)) return raw.map((t) => (typeof t === "string" ? t : JSON.stringify(t)));
  return [];
}

function responseText(raw: unknown): string | undefined {
  if (typeof raw === "string") return raw;
  if (!isRecord(raw)) return undefined;
  const value = raw.text ?? raw.message ?? raw.answer ?? raw.response ?? raw.content;
  return typeof value === "string" ? value : undefined;
}

function describeTool(tool: ToolSpec): string {
  const props = isRecord(tool.parameters.properties) ? tool.parameters.properties : {};
  const required = Array.isArray(tool.parameters.required) ? tool.parameters.required : [];
  const lines = Object.entries(props).map(([name, schema]) => {
    const s = isRecord(schema) ? schema : {};
    const type = typeof s.type === "string" ? s.type : Array.isArray(s.type) ? s.type.join("|") : "any";
    const need = required.includes(name) ? "required" : "optional";
    const desc = typeof s.description === "string" ? `: ${s.description}` : "";
    return `- ${name} (${type}, ${need})${desc}`;
  });
  return [`## ${tool.name}`, tool.description, lines.length > 0 ? "Arguments:" : "Arguments: none", ...lines, ""].join(
    "\n",
  );
}

function exampleCall(tool: ToolSpec): string {
  const props = isRecord(tool.parameters.properties) ? tool.parameters.properties : {};
  const args = Object.fromEntries(
    Object.keys(props)
      .slice(0, 2)
      .map((k) => [k, "..."]),
  );
  return JSON.stringify({ thoughts: [`I need to use ${tool.name}.`], tool_name: tool.name, tool_args: args });
}
