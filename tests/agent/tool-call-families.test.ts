// Every family of tool calls models write as text, built from the models' published chat
// templates, docs and the inference servers' parser tests (the source is named on each case),
// rewritten to call our tools. Each case asserts the exact calls recovered, in order.
import { describe, expect, it } from "vitest";
import { recoverToolCalls } from "../../src/agent/replies/text-tool-calls.js";

const TOOLS = ["read_file", "write_file", "edit_file", "grep_files", "list_files", "run_shell_command"];
type Call = { name: string; args: Record<string, unknown> };
const READ: Call = { name: "read_file", args: { path: "src/a.ts" } };
const GREP: Call = { name: "grep_files", args: { pattern: "TODO", path: "src" } };
const J_READ = '{"name": "read_file", "arguments": {"path": "src/a.ts"}}';
const J_GREP = '{"name": "grep_files", "arguments": {"pattern": "TODO", "path": "src"}}';

interface Case {
  family: string;
  source: string;
  text: string;
  calls: Call[];
}

export const FAMILIES: Case[] = [
  // ---- JSON objects and their wrappers
  {
    family: "bare {name, arguments}",
    source: "Ollama issue reports (qwen2.5-coder writing JSON as content)",
    text: J_READ,
    calls: [READ],
  },
  {
    family: "bare {name, parameters} + <|eot_id|>",
    source: "Llama 3.1 model card, JSON-based tool calling (meta-llama/Llama-3.1-8B-Instruct)",
    text: '{"name": "read_file", "parameters": {"path": "src/a.ts"}}<|eot_id|>',
    calls: [READ],
  },
  {
    family: "list of calls",
    source: "vLLM tests/tool_use (llama3_json parallel calls)",
    text: `[${J_READ}, ${J_GREP}]`,
    calls: [READ, GREP],
  },
  {
    family: '{"tool_calls": [...]}',
    source: "OpenAI chat completions message shape, written as text by small models",
    text: `{"tool_calls": [{"type": "function", "function": {"name": "read_file", "arguments": "{\\"path\\": \\"src/a.ts\\"}"}}]}`,
    calls: [READ],
  },
  {
    family: "```json fence + <|im_end|>",
    source: "Qwen2.5 chat template (Qwen/Qwen2.5-7B-Instruct), im_end end token",
    text: "```json\n" + J_READ + "\n```<|im_end|>",
    calls: [READ],
  },
  {
    family: "<tools> tag",
    source: "Hermes 2 Pro system prompt names <tools>; small models echo it around calls",
    text: `<tools>${J_READ}</tools>`,
    calls: [READ],
  },
  {
    family: "<toolcall> list (Nemotron)",
    source:
      "NVIDIA Llama-3.1-Nemotron-Nano-8B-v1 model card: <TOOLCALL>[...]</TOOLCALL> (lower-case here as Ollama's template writes it)",
    text: `<toolcall>[${J_READ}]</toolcall>`,
    calls: [READ],
  },
  {
    family: "<function_call> (Granite 3.0)",
    source: "vLLM granite-20b-fc parser: <function_call> {json}",
    text: `<function_call> ${J_READ}`,
    calls: [READ],
  },
  {
    family: "<tool> tag",
    source: "Ollama issue reports: models that wrap a call in <tool>…</tool>",
    text: `<tool>${J_READ}</tool>`,
    calls: [READ],
  },
  {
    family: "<JSON> tag",
    source: "Ollama issue reports: models that wrap a call in <JSON>…</JSON>",
    text: `<JSON>${J_READ}</JSON>`,
    calls: [READ],
  },
  {
    family: "bare call then a tagged one: both run",
    source: "Ollama issue reports (qwen2.5 mixing a bare and a Hermes call in one reply)",
    text: `${J_READ}\n<tool_call>\n${J_GREP}\n</tool_call>`,
    calls: [READ, GREP],
  },
  // ---- Hermes / Qwen
  {
    family: "Hermes <tool_call>",
    source: "NousResearch/Hermes-2-Pro-Llama-3-8B chat template; vLLM hermes parser tests",
    text: `<tool_call>\n${J_READ}\n</tool_call>`,
    calls: [READ],
  },
  {
    family: "two Hermes calls after prose",
    source: "Qwen2.5 function-calling docs (qwen.readthedocs.io, Hermes-style template), parallel calls",
    text: `I will look.\n<tool_call>\n${J_READ}\n</tool_call>\n<tool_call>\n${J_GREP}\n</tool_call>`,
    calls: [READ, GREP],
  },
  {
    family: "<tool_call>name\\n{json}",
    source: "Ollama issue reports (qwen3 writing the name first)",
    text: '<tool_call>read_file\n{"path": "src/a.ts"}</tool_call>',
    calls: [READ],
  },
  {
    family: "Qwen3-Coder XML",
    source: "Qwen/Qwen3-Coder-30B-A3B-Instruct chat template and qwen3coder_tool_parser.py",
    text: "<tool_call>\n<function=grep_files>\n<parameter=pattern>\nTODO\n</parameter>\n<parameter=path>\nsrc\n</parameter>\n</function>\n</tool_call>",
    calls: [GREP],
  },
  // ---- Llama
  {
    family: "<|python_tag|> JSON",
    source: "Llama 3.1 prompt format docs (llama.com, built-in and custom tools)",
    text: `<|python_tag|>${J_READ}<|eom_id|>`,
    calls: [READ],
  },
  {
    family: "<|python_tag|>name.call(k=v)",
    source: "Llama 3.1 prompt format docs: built-in tools as brave_search.call(query=...)",
    text: '<|python_tag|>grep_files.call(pattern="TODO", path="src")<|eom_id|>',
    calls: [GREP],
  },
  {
    family: "<function=name>{json}</function>",
    source: "Llama 3.1 prompt format docs: custom tool calling with <function=...>",
    text: '<function=read_file>{"path": "src/a.ts"}</function><|eot_id|>',
    calls: [READ],
  },
  {
    family: "pythonic list",
    source: "Llama 3.2 prompt format docs; vLLM pythonic parser tests",
    text: '[read_file(path="src/a.ts"), grep_files(pattern="TODO", path="src")]',
    calls: [READ, GREP],
  },
  {
    family: "pythonic list + end token on the same line",
    source: "Llama 3.3 outputs via Ollama (end token leaking into content)",
    text: '[read_file(path="src/a.ts")]<|eot_id|>',
    calls: [READ],
  },
  {
    family: "pythonic with Python literals",
    source: "vLLM pythonic parser tests (True/None literals, single quotes)",
    text: "[list_files(path='src', recursive=True, depth=None)]",
    calls: [{ name: "list_files", args: { path: "src", recursive: true, depth: null } }],
  },
  {
    family: "LFM2 <|tool_call_start|>",
    source: "LiquidAI/LFM2-1.2B chat template (tool calls as a Python list between tool_call_start/end)",
    text: '<|tool_call_start|>[read_file(path="src/a.ts")]<|tool_call_end|>',
    calls: [READ],
  },
  {
    family: "Olmo <function_calls>",
    source: "vLLM olmo3 tool parser (pythonic calls inside <function_calls>)",
    text: '<function_calls>read_file(path="src/a.ts")\ngrep_files(pattern="TODO", path="src")</function_calls>',
    calls: [READ, GREP],
  },
  // ---- Mistral, Firefunction, Granite, Command, InternLM, Functionary
  {
    family: "Mistral [TOOL_CALLS][…]",
    source: "mistralai/Mistral-7B-Instruct-v0.3 tokenizer; vLLM mistral parser tests",
    text: `[TOOL_CALLS] [${J_READ}]</s>`,
    calls: [READ],
  },
  {
    family: "Mistral [TOOL_CALLS]name[ARGS]{…}",
    source: "Mistral tokenizer v11 format (Magistral / Devstral); vLLM mistral parser tests",
    text: '[TOOL_CALLS]read_file[ARGS]{"path": "src/a.ts"}',
    calls: [READ],
  },
  {
    family: "Firefunction functools[…]",
    source: "fireworks-ai/llama-3-firefunction-v2 template; vLLM firefunction parser",
    text: `functools[${J_READ}]`,
    calls: [READ],
  },
  {
    family: "Granite <|tool_call|>[…]",
    source: "ibm-granite/granite-3.1-8b-instruct chat template; vLLM granite parser",
    text: `<|tool_call|>[${J_READ}]`,
    calls: [READ],
  },
  {
    family: 'Command-R "Action: ```json"',
    source: "Cohere Command-R tool-use prompt docs (Action: ```json [...] ```)",
    text: 'Action: ```json\n[{"tool_name": "read_file", "parameters": {"path": "src/a.ts"}}]\n```',
    calls: [READ],
  },
  {
    family: "Command-A <|START_ACTION|>",
    source: "CohereLabs/c4ai-command-a-03-2025 chat template",
    text: '<|START_ACTION|>[{"tool_call_id": "0", "tool_name": "read_file", "parameters": {"path": "src/a.ts"}}]<|END_ACTION|>',
    calls: [READ],
  },
  {
    family: "InternLM <|action_start|><|plugin|>",
    source: "internlm/internlm2_5-7b-chat tool-calling docs; vLLM internlm2 parser",
    text: '<|action_start|><|plugin|>\n{"name": "read_file", "parameters": {"path": "src/a.ts"}}<|action_end|>',
    calls: [READ],
  },
  {
    family: "Functionary >>>name",
    source: "meetkai/functionary-small-v3.2 prompt template (>>>recipient)",
    text: '>>>read_file\n{"path": "src/a.ts"}',
    calls: [READ],
  },
  // ---- DeepSeek, Claude-style XML, GLM, Gemma, gpt-oss, Seed-OSS, Cline
  {
    family: "DeepSeek V3 with function<｜tool▁sep｜> and a json fence",
    source: "deepseek-ai/DeepSeek-V3 chat template; sglang DeepSeekV3Detector tests",
    text: '<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>read_file\n```json\n{"path": "src/a.ts"}\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜>',
    calls: [READ],
  },
  {
    family: "DeepSeek V3.1 name<｜tool▁sep｜>{args}",
    source: "deepseek-ai/DeepSeek-V3.1 chat template; vLLM deepseekv31 parser",
    text: '<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>read_file<｜tool▁sep｜>{"path": "src/a.ts"}<｜tool▁call▁end｜><｜tool▁calls▁end｜>',
    calls: [READ],
  },
  {
    family: "DeepSeek with ASCII | and no calls▁begin",
    source: "Ollama issue reports (deepseek-r1 distills writing ASCII pipes)",
    text: '<|tool▁call▁begin|>function<|tool▁sep|>read_file\n```json\n{"path": "src/a.ts"}\n```<|tool▁call▁end|>',
    calls: [READ],
  },
  {
    family: "Claude-style <invoke> XML",
    source: "Anthropic tool-use XML (function_calls/invoke/parameter); DeepSeek V3.2 writes it",
    text: '<function_calls>\n<invoke name="grep_files">\n<parameter name="pattern">TODO</parameter>\n<parameter name="path">src</parameter>\n</invoke>\n</function_calls>',
    calls: [GREP],
  },
  {
    family: "GLM <arg_key>/<arg_value>",
    source: "zai-org/GLM-4.5 chat template; vLLM glm45 parser",
    text: "<tool_call>grep_files\n<arg_key>pattern</arg_key>\n<arg_value>TODO</arg_value>\n<arg_key>path</arg_key>\n<arg_value>src</arg_value>\n</tool_call>",
    calls: [GREP],
  },
  {
    family: "FunctionGemma <start_function_call>",
    source: "ai.google.dev/gemma/docs/functiongemma formatting: call:name{key:<escape>v<escape>}",
    text: "<start_function_call>call:grep_files{pattern:<escape>TODO<escape>,path:<escape>src<escape>}<end_function_call>",
    calls: [GREP],
  },
  {
    family: "Gemma <|tool_call>call:name{…}",
    source: "issue 13's list (Gemma's tool-call token form)",
    text: "<|tool_call>call:read_file{path:<escape>src/a.ts<escape>}<tool_call|>",
    calls: [READ],
  },
  {
    family: "gpt-oss harmony, recipient in the channel",
    source: "OpenAI harmony format docs (cookbook.openai.com/articles/openai-harmony)",
    text: '<|channel|>commentary to=functions.read_file <|constrain|>json<|message|>{"path": "src/a.ts"}<|call|>',
    calls: [READ],
  },
  {
    family: "gpt-oss harmony, recipient in the role header",
    source: "OpenAI harmony format docs: the recipient may stand in the role section",
    text: '<|start|>assistant to=functions.read_file<|channel|>commentary json<|message|>{"path": "src/a.ts"}<|call|>',
    calls: [READ],
  },
  {
    family: "Seed-OSS <seed:tool_call>",
    source: "ByteDance-Seed/Seed-OSS-36B-Instruct chat template; vLLM seed_oss parser",
    text: "<seed:tool_call>\n<function=read_file>\n<parameter=path>src/a.ts</parameter>\n</function>\n</seed:tool_call>",
    calls: [READ],
  },
  {
    family: "Cline-style <tool><param>",
    source: "Cline's system prompt tool-use format (<read_file><path>…</path></read_file>)",
    text: "I'll read it.\n<read_file>\n<path>src/a.ts</path>\n</read_file>",
    calls: [READ],
  },
  // ---- Families first met after the recogniser was built (held out from its design)
  {
    family: "Qwen-Agent ✿FUNCTION✿ / ✿ARGS✿ labels",
    source: "QwenLM/Qwen-Agent qwen_agent/llm/fncall_prompts/qwen_fncall_prompt.py (FN_NAME, FN_ARGS, FN_RESULT)",
    text: 'I will read the file.\n✿FUNCTION✿: read_file\n✿ARGS✿: {"path": "src/a.ts"}\n✿RESULT✿',
    calls: [READ],
  },
  {
    family: "NexusRaven Call: name(k=v)",
    source: "Nexusflow/NexusRaven-V2-13B model card (Call: fn(arg=…)<bot_end>)",
    text: "Call: read_file(path='src/a.ts')<bot_end>",
    calls: [READ],
  },
  {
    family: "Kimi K2 tool-call section",
    source: "moonshotai/Kimi-K2-Instruct docs/tool_call_guidance.md; vLLM kimi_k2_tool_parser",
    text: '<|tool_calls_section_begin|><|tool_call_begin|>functions.read_file:0<|tool_call_argument_begin|>{"path": "src/a.ts"}<|tool_call_end|><|tool_calls_section_end|>',
    calls: [READ],
  },
  {
    family: "MiniMax-M2 <minimax:tool_call><invoke>",
    source: "MiniMaxAI/MiniMax-M2 docs/tool_calling_guide.md; vLLM minimax_m2_tool_parser",
    text: '<minimax:tool_call>\n<invoke name="read_file">\n<parameter name="path">src/a.ts</parameter>\n</invoke>\n</minimax:tool_call>',
    calls: [READ],
  },
  {
    family: "Step-3 steptml invoke",
    source: "vLLM step3_tool_parser (<｜tool_calls_begin｜> … <steptml:invoke name=…>)",
    text: '<｜tool_calls_begin｜><｜tool_call_begin｜>function<｜tool_sep｜><steptml:invoke name="read_file"><steptml:parameter name="path">src/a.ts</steptml:parameter></steptml:invoke><｜tool_call_end｜><｜tool_calls_end｜>',
    calls: [READ],
  },
  {
    family: "Hunyuan / Jamba <tool_calls>[…]",
    source: "vLLM hunyuan_a13b_tool_parser and jamba_tool_parser",
    text: '<tool_calls>[{"name": "read_file", "arguments": {"path": "src/a.ts"}}]</tool_calls>',
    calls: [READ],
  },
  {
    family: "Hermes 2 Pro with a Python dict",
    source: "NousResearch/Hermes-2-Pro-Llama-3-8B model card (tool_call holds a dict in single quotes)",
    text: "<tool_call>\n{'arguments': {'path': 'src/a.ts'}, 'name': 'read_file'}\n</tool_call>",
    calls: [READ],
  },
  {
    family: "self-closing tag, arguments in an attribute",
    source: "issue 24's left-over case (a small model's reply)",
    text: '<tool_call name="read_file" arguments=\'{"path": "src/a.ts"}\'/>',
    calls: [READ],
  },
];

/** Replies that must not run anything. */
const NEGATIVES: { what: string; text: string }[] = [
  {
    what: "labels in prose that name no call",
    text: "Result: the tests pass.\nFunction: read_file reads a file and returns its lines.\nAction: none needed.",
  },
  {
    what: "a label naming a tool in a sentence",
    text: "Tool: read_file is what I used above, and the file is fine.",
  },
  {
    what: "an API example in prose: an assistant message holding tool_calls",
    text:
      'The API answers with a message like this:\n```json\n{"role": "assistant", "content": null, "tool_calls": [' +
      '{"type": "function", "function": {"name": "read_file", "arguments": "{}"}}]}\n```\nYour code then runs the function.',
  },
  {
    what: "the same example as the whole reply",
    text: '{"role": "assistant", "tool_calls": [{"type": "function", "function": {"name": "read_file", "arguments": {}}}]}',
  },
  {
    what: "a code snippet calling a function that shares a tool's name",
    text:
      "Here is how the helper is used in the tests:\n\n```python\nresult = read_file(path='src/a.ts')\nprint(result)\n```\n\n" +
      "It returns the file's text.",
  },
  { what: "a JSON answer to the user's question", text: '{"name": "agent0", "version": "0.1.0", "license": "MIT"}' },
  {
    what: "prose that names a tool we do not have",
    text: "You could use a tool like delete_everything or <b>format_disk</b> for that, but I would not.",
  },
  {
    what: "HTML that happens to use a tool's name as a tag name elsewhere",
    text: "<div><path>not a call</path></div>",
  },
];

describe("tool calls written as text: every family", () => {
  it.each(FAMILIES.map((c) => [c.family, c] as const))("%s", (_family, c) => {
    const r = recoverToolCalls(c.text, TOOLS);
    expect(r.calls).toEqual(c.calls);
    expect(r.malformed).toBe(false);
  });

  it.each(NEGATIVES.map((n) => [n.what, n.text] as const))("never a call: %s", (_what, text) => {
    expect(recoverToolCalls(text, TOOLS).calls).toEqual([]);
  });
});

describe("look-alikes that are not even malformed calls", () => {
  it("a Python prompt session is plain text", () => {
    const r = recoverToolCalls("In the REPL:\n>>> x\n[1, 2]\n", TOOLS);
    expect(r).toMatchObject({ calls: [], malformed: false, unknown: [] });
  });
});

// LangChain's ReAct prompt (hub "hwchase17/react": "Action: the action to take ... Action Input:
// the input to the action") and its ReActSingleInputOutputParser take the input as plain text.
// With the tools' schemas, that text is the value of a tool's one required string parameter.
describe("ReAct's plain-text Action Input", () => {
  const str = { type: "string" };
  const SHAPES = [
    {
      name: "read_file",
      parameters: { type: "object", properties: { path: str, offset: { type: "integer" } }, required: ["path"] },
    },
    { name: "run_shell_command", parameters: { type: "object", properties: { command: str }, required: ["command"] } },
    {
      name: "edit_file",
      parameters: {
        type: "object",
        properties: { path: str, old_string: str, new_string: str },
        required: ["path", "old_string", "new_string"],
      },
    },
  ];
  const calls = (text: string) => recoverToolCalls(text, SHAPES).calls.map((c) => ({ name: c.name, args: c.args }));

  it("fills the one required string parameter", () => {
    expect(calls("Thought: I should look at it.\nAction: read_file\nAction Input: src/a.ts")).toEqual([READ]);
    expect(calls('Action: run_shell_command\nAction Input: "ls -la src"\nObservation:')).toEqual([
      { name: "run_shell_command", args: { command: "ls -la src" } },
    ]);
  });

  it("a tool that needs several arguments is not guessed", () => {
    expect(calls("Action: edit_file\nAction Input: src/a.ts")).toEqual([]);
  });
});
