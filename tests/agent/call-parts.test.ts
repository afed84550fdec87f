// The recogniser read by its parts (issue 24): every wrapper × every argument encoding, then the
// families of the last year from the sources that publish them, then what is never a call. The
// wrappers and encodings are the ones the cited chat templates and inference-server parsers use;
// the matrix combines them the way a family nobody has listed yet would.
import { describe, expect, it } from "vitest";
import { recoverToolCalls, type ToolShape } from "../../src/agent/replies/text-tool-calls.js";

const str = { type: "string" };
const int = { type: "integer" };
const TOOLS: ToolShape[] = [
  {
    name: "read_file",
    parameters: { type: "object", properties: { path: str, offset: int, limit: int }, required: ["path"] },
  },
  {
    name: "grep_files",
    parameters: { type: "object", properties: { pattern: str, path: str }, required: ["pattern"] },
  },
  {
    name: "write_file",
    parameters: { type: "object", properties: { path: str, content: str }, required: ["path", "content"] },
  },
  { name: "list_files", parameters: { type: "object", properties: { path: str } } },
  { name: "run_shell_command", parameters: { type: "object", properties: { command: str }, required: ["command"] } },
];
const READ = { name: "read_file", args: { path: "src/a.ts" } };
const GREP = { name: "grep_files", args: { pattern: "TODO", path: "src" } };

// ---- Part by part: the encodings of read_file(path="src/a.ts") …
const ENCODINGS: [string, string][] = [
  // Hermes / Qwen2.5 template (NousResearch/Hermes-2-Pro-Llama-3-8B tokenizer_config.json)
  ["JSON {name, arguments}", '{"name": "read_file", "arguments": {"path": "src/a.ts"}}'],
  // Llama 3.1 JSON tool calling (meta-llama/Llama-3.1-8B-Instruct model card)
  ["JSON {name, parameters}", '{"name": "read_file", "parameters": {"path": "src/a.ts"}}'],
  // vLLM hermes parser tests: arguments sent as a JSON string
  ["JSON arguments as a JSON string", '{"name": "read_file", "arguments": "{\\"path\\": \\"src/a.ts\\"}"}'],
  // Anthropic-style input key, written by models trained on Claude transcripts
  ["JSON {name, input}", '{"name": "read_file", "input": {"path": "src/a.ts"}}'],
  // Apertus (sglang DETECTOR_COMPATIBILITY_CASES "apertus2509": [{"get_weather": {...}}])
  ["JSON name-as-key", '[{"read_file": {"path": "src/a.ts"}}]'],
  // xLAM / llama3_json parallel calls (vLLM tests/tool_use)
  ["JSON list of calls", '[{"name": "read_file", "arguments": {"path": "src/a.ts"}}]'],
  // Qwen3-Coder template (Qwen/Qwen3-Coder-30B-A3B-Instruct, qwen3coder_tool_parser.py)
  ["XML <function=…><parameter=…>", "<function=read_file>\n<parameter=path>\nsrc/a.ts\n</parameter>\n</function>"],
  // MiniMax-M2 tool_calling_guide.md; Anthropic's function_calls XML
  [
    "XML <invoke name><parameter name>",
    '<invoke name="read_file">\n<parameter name="path">src/a.ts</parameter>\n</invoke>',
  ],
  // GLM-4.5/4.7 (zai-org/GLM-4.5 chat template; sglang glm47 case without a newline)
  ["name + <arg_key>/<arg_value>", "read_file<arg_key>path</arg_key><arg_value>src/a.ts</arg_value>"],
  // sglang "glm" case: <tool_call>get_weather\n<city>Paris — a property of the schema as a tag
  ["name + <property> tags", "read_file\n<path>src/a.ts</path>"],
  // Olmo 3 / pythonic parser (vLLM olmo3 and pythonic tool parsers)
  ["pythonic name(k=v)", 'read_file(path="src/a.ts")'],
  // Llama 3.2 / Llama 4 pythonic list (vLLM llama4_pythonic parser)
  ["pythonic list", '[read_file(path="src/a.ts")]'],
  // Qwen3 in Ollama writing the name first (Ollama issue reports); Kimi's name then JSON
  ["name then JSON", 'read_file\n{"path": "src/a.ts"}'],
  // Kimi K2 (vLLM kimi_k2 parser: functions.name:0<|tool_call_argument_begin|>{…})
  ["namespaced name:index + JSON", 'functions.read_file:0 {"path": "src/a.ts"}'],
];

// … and the wrappers around them.
const WRAPPERS: [string, (call: string) => string][] = [
  // Hermes / Qwen / ERNIE 4.5 / Granite 4 (vLLM hermes, ernie45 parsers)
  ["<tool_call> tag", (c) => `<tool_call>\n${c}\n</tool_call>`],
  // A section never closed: the reply ended (sglang TRUNCATED cases show the shape)
  ["<tool_call> never closed", (c) => `<tool_call>\n${c}`],
  // Phi-4-mini (<|tool_call|>…<|/tool_call|>, vLLM phi4_mini_json parser)
  ["<|tool_call|> … <|/tool_call|>", (c) => `<|tool_call|>${c}<|/tool_call|>`],
  // The example: a special token no scanner names
  ["<|my_call|> (no scanner names it)", (c) => `<|my_call|>${c}<|my_call_end|>`],
  // DeepSeek tokens with ▁ (deepseek-ai/DeepSeek-V3 chat template)
  ["<｜…▁…｜> full-width token", (c) => `<｜tool▁call▁begin｜>${c}<｜tool▁call▁end｜>`],
  // Step3 writes <｜tool_calls_begin｜> without ▁ (sglang Step3Detector)
  ["<｜…｜> without ▁", (c) => `<｜tool_calls_begin｜>${c}<｜tool_calls_end｜>`],
  // LM Studio's [TOOL_REQUEST] … [END_TOOL_REQUEST] (LM Studio docs, tool use with non-native models)
  ["[UPPER_CASE] tokens", (c) => `[TOOL_REQUEST]${c}[END_TOOL_REQUEST]`],
  // Any prefix and casing: <seed:tool_call>, <minimax:tool_call>, <TOOLCALL> (Nemotron), <longcat_tool_call>
  ["<acme:ToolCall> prefixed, camel-cased", (c) => `<acme:ToolCall>${c}</acme:ToolCall>`],
  // ReAct-style agents wrap calls in <action> (smolagents / LangChain prompts echoed)
  ["<action> tag", (c) => `<action>\n${c}\n</action>`],
  // Gemma 3 writes ```tool_code; others ```tool_call (ai.google.dev function calling with Gemma)
  ["```tool_call fence", (c) => "```tool_call\n" + c + "\n```"],
  // Kimi K2 section left open at the end of the reply
  ["<|tool_calls_section_begin|> never closed", (c) => `<|tool_calls_section_begin|>${c}`],
  // The lead-in reply (issue 24 part 3): one sentence, then the call fenced
  ["lead-in + ```json fence", (c) => "I'll read the file now.\n```json\n" + c + "\n```"],
];

describe("each wrapper × each encoding", () => {
  const cases = WRAPPERS.flatMap(([w, wrap]) => ENCODINGS.map(([e, call]) => [w, e, wrap(call)] as const));
  it.each(cases)("%s × %s", (_w, _e, text) => {
    const r = recoverToolCalls(text, TOOLS);
    expect(r.calls).toEqual([READ]);
  });
});

/** Families released or documented in the last year, each from the source that shows it. */
const FAMILIES: {
  family: string;
  source: string;
  text: string;
  calls: { name: string; args: Record<string, unknown> }[];
}[] = [
  {
    family: "Kimi K2",
    source: "vLLM kimi_k2_tool_parser.py; MoonshotAI/Kimi-K2 docs/tool_call_guidance.md",
    text: '<|tool_calls_section_begin|><|tool_call_begin|>functions.read_file:0<|tool_call_argument_begin|>{"path": "src/a.ts"}<|tool_call_end|><|tool_calls_section_end|>',
    calls: [READ],
  },
  {
    family: "Kimi K2, two calls",
    source: "vLLM kimi_k2_tool_parser.py (several tool_call_begin in one section)",
    text: '<|tool_calls_section_begin|><|tool_call_begin|>functions.read_file:0<|tool_call_argument_begin|>{"path": "src/a.ts"}<|tool_call_end|><|tool_call_begin|>functions.grep_files:1<|tool_call_argument_begin|>{"pattern": "TODO", "path": "src"}<|tool_call_end|><|tool_calls_section_end|>',
    calls: [READ, GREP],
  },
  {
    family: "MiniMax-M2",
    source: "MiniMax-AI/MiniMax-M2.5 docs/tool_calling_guide.md; llama.cpp minimax-m2 parser",
    text: '<minimax:tool_call>\n<invoke name="grep_files">\n<parameter name="pattern">TODO</parameter>\n<parameter name="path">src</parameter>\n</invoke>\n</minimax:tool_call>',
    calls: [GREP],
  },
  {
    family: "MiniMax-M1 JSON lines",
    source: "MiniMax-M1 function_call_guide.md (<tool_calls> with one JSON object per line)",
    text: '<tool_calls>\n{"name": "read_file", "arguments": {"path": "src/a.ts"}}\n{"name": "grep_files", "arguments": {"pattern": "TODO", "path": "src"}}\n</tool_calls>',
    calls: [READ, GREP],
  },
  {
    family: "Step3",
    source: "sglang Step3Detector docstring (steptml:invoke inside ｜tool_calls_begin｜)",
    text: '<｜tool_calls_begin｜><｜tool_call_begin｜>function<｜tool_sep｜><steptml:invoke name="read_file"><steptml:parameter name="path">src/a.ts</steptml:parameter></steptml:invoke><｜tool_call_end｜><｜tool_calls_end｜>',
    calls: [READ],
  },
  {
    family: "DeepSeek V3.2 DSML",
    source: "sglang DETECTOR_COMPATIBILITY_CASES deepseekv32 (<｜DSML｜function_calls>)",
    text: '<｜DSML｜function_calls>\n<｜DSML｜invoke name="read_file">\n<｜DSML｜parameter name="path" string="true">src/a.ts</｜DSML｜parameter>\n</｜DSML｜invoke>\n</｜DSML｜function_calls>',
    calls: [READ],
  },
  {
    family: "GLM-4.7 without newlines",
    source: "sglang UNCONVERTIBLE_VALUE_CASES glm47",
    text: "<tool_call>grep_files<arg_key>pattern</arg_key><arg_value>TODO</arg_value><arg_key>path</arg_key><arg_value>src</arg_value></tool_call>",
    calls: [GREP],
  },
  {
    family: "Hunyuan <tool_sep>",
    source: "sglang UNCONVERTIBLE_VALUE_CASES hunyuan",
    text: "<tool_calls><tool_call>grep_files<tool_sep><arg_key>pattern</arg_key><arg_value>TODO</arg_value><arg_key>path</arg_key><arg_value>src</arg_value></tool_call></tool_calls>",
    calls: [GREP],
  },
  {
    family: "MiniCPM5 <function name><param name>",
    source: "sglang UNCONVERTIBLE_VALUE_CASES minicpm5",
    text: '<function name="read_file"><param name="path">src/a.ts</param></function>',
    calls: [READ],
  },
  {
    family: "LongCat prefixed arg tags",
    source: "mlx-lm longcat parser docstring (<longcat_tool_call>name <longcat_arg_key>…)",
    text: "<longcat_tool_call>read_file\n<longcat_arg_key>path</longcat_arg_key>\n<longcat_arg_value>src/a.ts</longcat_arg_value>\n</longcat_tool_call>",
    calls: [READ],
  },
  {
    family: "GigaChat3 role_sep",
    source: "sglang DETECTOR_COMPATIBILITY_CASES gigachat3 (function call<|role_sep|>{…}</s>)",
    text: 'function call<|role_sep|>\n{"name": "read_file", "arguments": {"path": "src/a.ts"}}</s>',
    calls: [READ],
  },
  {
    family: 'Gemma 4 with <|"|> quotes',
    source: 'sglang gemma4 case (<|tool_call>call:name{…}<tool_call|>); Gemma 4 quotes strings with <|"|>',
    text: '<|tool_call>call:read_file{path:<|"|>src/a.ts<|"|>}<tool_call|>',
    calls: [READ],
  },
  {
    family: "InternS1 action tokens with a space",
    source: "sglang DETECTOR_COMPATIBILITY_CASES interns1",
    text: '<|action_start|> <|plugin|>{"name": "read_file", "parameters": {"path": "src/a.ts"}}<|action_end|>',
    calls: [READ],
  },
  {
    family: "Trinity <think> then Hermes",
    source: "sglang DETECTOR_COMPATIBILITY_CASES trinity",
    text: '<think>need the file</think><tool_call>\n{"name": "read_file", "arguments": {"path": "src/a.ts"}}\n</tool_call>',
    calls: [READ],
  },
  {
    family: "MiMo / Step3.5 <function=…> JSON body",
    source: "sglang mimo case (<tool_call><function=name>{…}</tool_call>)",
    text: '<tool_call><function=read_file>{"path": "src/a.ts"}</function></tool_call>',
    calls: [READ],
  },
  {
    family: "GLM-4 <name>/<arguments>",
    source: "mlx-manager GLM4ToolParser docstring (<tool_call><name>f</name><arguments>{…}</arguments>)",
    text: '<tool_call><name>read_file</name><arguments>{"path": "src/a.ts"}</arguments></tool_call>',
    calls: [READ],
  },
  {
    family: "Llama 4 <|python_start|> pythonic",
    source: "meta-llama/Llama-4-Scout-17B-16E-Instruct chat template; vLLM llama4_pythonic parser",
    text: '<|python_start|>[read_file(path="src/a.ts"), grep_files(pattern="TODO", path="src")]<|python_end|>',
    calls: [READ, GREP],
  },
  {
    family: "LM Studio [TOOL_REQUEST]",
    source: "LM Studio docs, tool use: default format for models without native tool support",
    text: '[TOOL_REQUEST]\n{"name": "read_file", "arguments": {"path": "src/a.ts"}}\n[END_TOOL_REQUEST]',
    calls: [READ],
  },
  {
    family: "ReAct Action / Action Input",
    source: "LangChain ReAct prompt (Action: / Action Input: / Observation:), echoed by small models",
    text: 'Thought: I need the file.\nAction: read_file\nAction Input: {"path": "src/a.ts"}\nObservation:',
    calls: [READ],
  },
  {
    family: "Case-insensitive name",
    source: "Ollama issue reports: small models capitalise tool names (Read_File)",
    text: '<tool_call>{"name": "Read_File", "arguments": {"path": "src/a.ts"}}</tool_call>',
    calls: [READ],
  },
  {
    family: "default_api namespace",
    source: "Gemini / Gemma tool_code: print(default_api.read_file(...))",
    text: '<tool_call>{"name": "default_api.read_file", "arguments": {"path": "src/a.ts"}}</tool_call>',
    calls: [READ],
  },
  {
    family: "tools. namespace",
    source: "issue 24 (tools.read_file)",
    text: '{"name": "tools.read_file", "arguments": {"path": "src/a.ts"}}',
    calls: [READ],
  },
  {
    family: "integer typed by the schema",
    source: "vLLM qwen3coder_tool_parser (parameter values converted by the schema's type)",
    text: "<tool_call>\n<function=read_file>\n<parameter=path>src/a.ts</parameter>\n<parameter=limit>20</parameter>\n</function>\n</tool_call>",
    calls: [{ name: "read_file", args: { path: "src/a.ts", limit: 20 } }],
  },
  {
    family: "the lead-in sentence then a bare JSON call",
    source: "issue 24: `I'll create the file now.` then a fenced JSON call ran nothing",
    text:
      "I'll create the file now.\n```json\n" +
      '{"name": "write_file", "arguments": {"path": "a.txt", "content": "hi"}}' +
      "\n```",
    calls: [{ name: "write_file", args: { path: "a.txt", content: "hi" } }],
  },
  {
    family: "three short sentences, then a bare call",
    source: "issue 24 part 3 (one to three short sentences)",
    text: 'The file is missing. I checked twice. I will list the folder.\n{"name": "list_files", "arguments": {"path": "src"}}',
    calls: [{ name: "list_files", args: { path: "src" } }],
  },
  {
    family: "lead-in then a pythonic call on its own line",
    source: "Llama 3.2 3B replies via Ollama (pythonic without the list)",
    text: 'Let me search.\ngrep_files(pattern="TODO", path="src")',
    calls: [GREP],
  },
  {
    family: "Claude 2 <invoke><tool_name><parameters>",
    source: "Anthropic's legacy function-calling prompt (anthropic-tools: <invoke><tool_name>…<parameters>)",
    text: "<function_calls>\n<invoke>\n<tool_name>read_file</tool_name>\n<parameters>\n<path>src/a.ts</path>\n</parameters>\n</invoke>\n</function_calls>",
    calls: [READ],
  },
  {
    family: "ChatGLM3 name then ```python tool_call(…)",
    source: "THUDM/chatglm3-6b tool_using README (the name line, then tool_call(k=v) in a fence)",
    text: "read_file\n```python\ntool_call(path='src/a.ts')\n```",
    calls: [READ],
  },
  {
    family: "ChatML role leak before a bare call",
    source: "Ollama issue reports (a Qwen template missing: <|im_start|>assistant then the JSON call)",
    text: '<|im_start|>assistant\n{"name": "read_file", "arguments": {"path": "src/a.ts"}}<|im_end|>',
    calls: [READ],
  },
  {
    family: "ChatML role leak before <tool_call>",
    source: "llama.cpp issue reports (raw <|im_start|>assistant<tool_call> in content)",
    text: '<|im_start|>assistant\n<tool_call>\n{"name": "read_file", "arguments": {"path": "src/a.ts"}}\n</tool_call>',
    calls: [READ],
  },
  {
    family: "OpenAI multi_tool_use leak",
    source: "OpenAI community reports: tool_uses with recipient_name functions.x and parameters, in content",
    text: '{"tool_uses": [{"recipient_name": "functions.read_file", "parameters": {"path": "src/a.ts"}}]}',
    calls: [READ],
  },
  {
    family: "function_name / function_args keys",
    source: "small-model JSON agents (smolagents-style prompts echoed with other key names)",
    text: '{"function_name": "read_file", "function_args": {"path": "src/a.ts"}}',
    calls: [READ],
  },
  {
    family: "a JSON object as the only pythonic argument, after a label",
    source: "LM Studio community reports (Tool call: name({…}))",
    text: 'Tool call: read_file({"path": "src/a.ts"})',
    calls: [READ],
  },
  {
    family: "Mistral without [ARGS]",
    source: "Ollama issue reports (mistral-small writing [TOOL_CALLS]name{…})",
    text: '[TOOL_CALLS]read_file{"path": "src/a.ts"}',
    calls: [READ],
  },
  {
    family: "GLM-4 9B name line then JSON",
    source: "THUDM/glm-4-9b-chat tool-call format (function name on its own line, JSON arguments below)",
    text: 'read_file\n{"path": "src/a.ts"}',
    calls: [READ],
  },
  {
    family: "xLAM tool_calls wrapper",
    source: "Salesforce/xLAM-1b-fc-r model card output format",
    text: '{"tool_calls": [{"name": "grep_files", "arguments": {"pattern": "TODO", "path": "src"}}]}',
    calls: [GREP],
  },
  {
    family: "Groq tool-use Llama <tool_call> with id",
    source: "Groq/Llama-3-Groq-8B-Tool-Use model card (<tool_call> with an id key)",
    text: '<tool_call>\n{"id": 0, "name": "read_file", "arguments": {"path": "src/a.ts"}}\n</tool_call>',
    calls: [READ],
  },
  {
    family: "positional arguments named by the schema",
    source:
      'Gemma 3 tool_code replies via Ollama (read_file("a") without keywords, ai.google.dev function-calling notes)',
    text: '```tool_code\nread_file("src/a.ts")\n```',
    calls: [READ],
  },
  {
    family: "positional then keyword arguments",
    source: "Llama 3.2 pythonic replies (vLLM pythonic parser accepts only keywords; the schema orders them here)",
    text: 'Searching.\ngrep_files("TODO", path="src")',
    calls: [GREP],
  },
  {
    family: "a lead-in with a blank line, then ```xml around <tool_call>",
    source: "Ollama issue reports (qwen2.5-coder fencing its Hermes call after a sentence and a blank line)",
    text: 'Let me read the file:\n\n```xml\n<tool_call>\n{"name": "read_file", "arguments": {"path": "src/a.ts"}}\n</tool_call>\n```',
    calls: [READ],
  },
  {
    family: "Mistral [CALL_ID] between name and [ARGS]",
    source: "mistral-common tokenizer v13 format ([TOOL_CALLS]name[CALL_ID]id[ARGS]{…})",
    text: '[TOOL_CALLS]read_file[CALL_ID]a1b2c3d4e[ARGS]{"path": "src/a.ts"}',
    calls: [READ],
  },
];

describe("families of the last year", () => {
  it.each(FAMILIES.map((f) => [f.family, f] as const))("%s", (_f, c) => {
    const r = recoverToolCalls(c.text, TOOLS);
    expect(r.calls).toEqual(c.calls);
    expect(r.unknown).toEqual([]);
  });
});

/** Never a call; `callLike`: whether the loop must still ask again (call-like, nothing read). */
const NEGATIVES: { what: string; source: string; text: string; callLike: boolean }[] = [
  {
    what: "echoed format instructions with placeholders",
    source: "issue 24 (small models echo their instructions); Hermes system prompt's schema line",
    text: 'For each function call, return a json object with function name and arguments within <tool_call></tool_call> XML tags:\n<tool_call>\n{"name": <function-name>, "arguments": <args-json-object>}\n</tool_call>',
    // Markup with no call in it: the loop asks again rather than ending the run on the echo.
    callLike: true,
  },
  {
    what: "placeholders in a well-formed call",
    source: "issue 24: `$ARG`, `<value>` echoed from the prompt",
    text: '<tool_call>\n{"name": "read_file", "arguments": {"path": "<value>"}}\n</tool_call>',
    callLike: true,
  },
  {
    what: "a $VAR placeholder",
    source: "issue 24",
    text: '{"name": "run_shell_command", "arguments": {"command": "$ARG"}}',
    callLike: true,
  },
  {
    what: "the JSON format with ... placeholders",
    source: 'issue 24: {"name": "...", "arguments": {...}}',
    text: 'Use this format:\n{"name": "...", "arguments": {...}}',
    callLike: false,
  },
  {
    what: "code calling a function that shares a tool's name",
    source: "issue 24 negatives; aider issue reports of models pasting helper code",
    text: "The helper is used like this:\n\n```python\ndata = read_file(path)\nfor line in data:\n    print(line)\n```\n\nIt returns the lines.",
    callLike: false,
  },
  {
    what: "an explanation with an example call behind a marker",
    source: "issue 24 e2e check 2c; Qwen2.5 function-calling docs quoted by a model",
    text: 'Qwen writes its calls like this, for example:\n<tool_call>\n{"name": "read_file", "arguments": {"path": "src/a.ts"}}\n</tool_call>\nThe server then parses the tag and returns the result to the model.',
    callLike: false,
  },
  {
    what: "an example in the middle of a longer explanation (bare)",
    source: "issue 24 part 3: a call shape in the middle of a longer explanation stays text",
    text: 'Tools are called with JSON.\nThe object has two keys.\nOne is the name, the other the arguments:\n{"name": "read_file", "arguments": {"path": "src/a.ts"}}\nThe runtime reads it, runs the tool and sends back the result.\nThen the model goes on.',
    callLike: true,
  },
  {
    what: "an Example: label before a call",
    source: "tutorial-style answers (Example: name(k=v))",
    text: 'Example: read_file(path="src/a.ts")',
    callLike: false,
  },
  {
    what: "an explanation of a family's markup, no cue word but 'wrap … tags' and prose after",
    source: "Hermes-2-Pro model card's description of <tool_call>, paraphrased in an answer",
    text: 'Hermes models wrap each call in tags:\n<tool_call>\n{"name": "read_file", "arguments": {"path": "src/a.ts"}}\n</tool_call>\nThe server strips the tags and hands the JSON to the client before the next turn.',
    callLike: false,
  },
  {
    what: "an Action: line in prose",
    source: "incident write-ups in answers (Action: / Result: lines)",
    text: "Summary of the fix.\nAction: none needed\nThe tests already pass.",
    callLike: false,
  },
  {
    what: "more positional values than the tool has parameters",
    source: "code calling a same-named helper with other arguments",
    text: 'list_files("src", "lib")',
    callLike: true,
  },
  {
    what: "a JSON answer to the user's question",
    source: "issue 24 negatives",
    text: '{"path": "src/a.ts", "lines": 120, "language": "TypeScript"}',
    callLike: false,
  },
  {
    what: "a truncated call",
    source: 'sglang NONSTREAM/TRUNCATED cases (hermes: <tool_call>{"name":… never closed)',
    text: '<tool_call>\n{"name": "read_file", "arguments": {"path": "src/a',
    callLike: true,
  },
  {
    what: "broken JSON in Kimi's section",
    source: "sglang NONSTREAM_DROP_CASES kimi_k2 ({broken)",
    text: "<|tool_calls_section_begin|><|tool_call_begin|>functions.read_file:0<|tool_call_argument_begin|>{broken<|tool_call_end|><|tool_calls_section_end|>",
    callLike: true,
  },
  {
    what: "a required argument missing",
    source: "sglang TOOLS (required: city); validation against the schema",
    text: '<tool_call>{"name": "write_file", "arguments": {"path": "a.txt"}}</tool_call>',
    callLike: true,
  },
  {
    what: "markup of an unknown family naming a known tool",
    source: "issue 24 part 2",
    text: "Running it: @@invoke read_file {path: src/a.ts",
    callLike: true,
  },
  {
    what: "a tool named in prose with pythonic arguments",
    source: "issue 24 part 2 (a tool named next to `name(`)",
    text: 'I am going to run read_file(path="src/a.ts") and then look at the exports before changing anything in the module.',
    callLike: true,
  },
  {
    what: "harmony analysis channel thinking about a call",
    source: "OpenAI harmony docs: the analysis channel is reasoning, not a call",
    text: "<|channel|>analysis<|message|>We should read the file first.<|end|><|start|>assistant<|channel|>final<|message|>Which file do you mean?",
    callLike: false,
  },
  {
    what: "an HTML snippet with a <form action> attribute",
    source: "web answers quoting HTML",
    text: 'Put this in the page:\n\n<form action="/search"><input name="q"></form>\n\nThen submit it.',
    callLike: false,
  },
  {
    what: "C++ include of <functional>",
    source: "C++ answers",
    text: "Add #include <functional> at the top, then use std::function<void()> for the callback.",
    callLike: false,
  },
  {
    what: "a tool mentioned in inline code",
    source: "final answers that name the tool they used",
    text: 'I used `read_file(path="src/a.ts")` to check it; the export is there.',
    callLike: false,
  },
  {
    what: "a Python REPL session",
    source: "functionary's >>> is also a Python prompt",
    text: "In the REPL:\n>>> read_file\n<function read_file at 0x1>\n",
    callLike: false,
  },
];

describe("never a call", () => {
  it.each(NEGATIVES.map((n) => [n.what, n] as const))("%s", (_w, n) => {
    const r = recoverToolCalls(n.text, TOOLS);
    expect(r.calls).toEqual([]);
    expect(r.rest).toBe(n.text);
    expect(r.malformed).toBe(n.callLike);
  });

  it("an unknown name is reported, never run", () => {
    const r = recoverToolCalls('<tool_call>{"name": "browse_web", "arguments": {"url": "x"}}</tool_call>', TOOLS);
    expect(r).toMatchObject({ calls: [], unknown: ["browse_web"] });
  });
});
