// A held-out table: tool calls written as text in dialects taken from sources the families table
// (tool-call-families.test.ts) and the negatives (text-tool-calls.test.ts) never used, rewritten
// to call our tools with their real schemas. It measures how the readers generalise, so a case is
// added here as found, not tuned for: `left` marks a dialect still unread, and why it is left.
// Measured when the table was built, before the readers changed: 14 of 34 dialects read (one of
// them, two positional values, by a guess now refused) and 2 of 17 negatives ran a call; after:
// 33 of 34 read, no negative runs anything.
import { describe, expect, it } from "vitest";
import { recoverToolCalls, type ToolShape } from "../../src/agent/replies/text-tool-calls.js";
import { builtinToolSchemas } from "../../src/tools/builtin-schemas.js";

const SCHEMAS = builtinToolSchemas();
const TOOLS: ToolShape[] = [
  "read_file",
  "grep_files",
  "list_files",
  "run_shell_command",
  "edit_file",
  "write_file",
].map((name) => ({ name, parameters: SCHEMAS[name] }));
type Call = { name: string; args: Record<string, unknown> };
const READ: Call = { name: "read_file", args: { path: "src/a.ts" } };
const GREP: Call = { name: "grep_files", args: { pattern: "TODO", path: "src" } };
const shell = (command: string): Call => ({ name: "run_shell_command", args: { command } });

interface Case {
  family: string;
  source: string;
  text: string;
  calls: Call[];
  /** Still unread, and why it is left so. */
  left?: string;
}

export const HELD_OUT: Case[] = [
  {
    family: "GigaChat 3: function call<|role_sep|> then JSON",
    source: "vLLM tests/tool_parsers/test_gigachat3_tool_parser.py (MIXED_OUTPUT_GIGACHAT3)",
    text: 'I\'ll check that for you.<|message_sep|>\n\nfunction call<|role_sep|>\n{"name": "read_file", "arguments": {"path": "src/a.ts"}}',
    calls: [READ],
  },
  {
    family: "GigaChat 3.1: <|function_call|> then JSON, </s>",
    source: "vLLM tests/tool_parsers/test_gigachat3_tool_parser.py (SIMPLE_FUNCTION_OUTPUT_GIGACHAT31 + EOS)",
    text: '<|function_call|>{"name": "grep_files", "arguments": {"pattern": "TODO", "path": "src"}}</s>',
    calls: [GREP],
  },
  {
    family: "CWM: <tool: function> then the tool's name and its plain input",
    source: "vLLM tests/tool_parsers/test_cwm_tool_parser.py (terminal find … inside <tool: function>)",
    text: '<think>Let me search.</think>\n<tool: function>\nrun_shell_command find . -name "*.ts" | xargs grep -n "TODO"\n</tool>\n',
    calls: [shell('find . -name "*.ts" | xargs grep -n "TODO"')],
  },
  {
    family: "CWM: two calls after a preamble",
    source: "vLLM tests/tool_parsers/test_cwm_tool_parser.py (test_extract_tool_calls_multiple_tools)",
    text: "preamble\n<tool: function>\nrun_shell_command echo hi\n</tool>\n<tool: function>\nrun_shell_command echo bye\n</tool>\n",
    calls: [shell("echo hi"), shell("echo bye")],
  },
  {
    family: "RWKV: **Tool Call:** then a ```json fence",
    source: "vLLM tests/tool_parsers/test_rwkv_tool_parser.py (_tool_call: bold label, indented JSON)",
    text: '**Tool Call:**\n```json\n{\n  "name": "read_file",\n  "arguments": {\n    "path": "src/a.ts"\n  }\n}\n```',
    calls: [READ],
  },
  {
    family: "RWKV: two labelled fences",
    source: "vLLM tests/tool_parsers/test_rwkv_tool_parser.py (parallel markdown tool calls)",
    text:
      '**Tool Call:**\n```json\n{\n  "name": "read_file",\n  "arguments": {\n    "path": "src/a.ts"\n  }\n}\n```\n' +
      '**Tool Call:**\n```json\n{\n  "name": "grep_files",\n  "arguments": {\n    "pattern": "TODO",\n    "path": "src"\n  }\n}\n```',
    calls: [READ, GREP],
  },
  {
    family: "RWKV: thinking closed without an opener, then a fenced call with an id",
    source: "vLLM tests/tool_parsers/test_rwkv_tool_parser.py (standalone JSON tool call after </think>)",
    text: 'I should check the file.</think>\n```json\n{\n  "name": "read_file",\n  "arguments": "{\\"path\\": \\"src/a.ts\\"}",\n  "id": "call_123"\n}\n```',
    calls: [READ],
  },
  {
    family: "Solar Open 2: <|tool_call:start|>name, <|tool_arg:…|> key/value tokens",
    source: "vLLM tests/tool_parsers/test_solar_open2_tool_parser.py (test_single_tool_with_content_prefix)",
    text: "Let me check the file.<|tool_call:start|>read_file\n<|tool_arg:start|>path<|tool_arg:value|>src/a.ts<|tool_arg:end|>\n<|tool_call:end|>",
    calls: [READ],
  },
  {
    family: "Solar Open 2: two arguments",
    source: "vLLM tests/tool_parsers/test_solar_open2_tool_parser.py (test_multiple_arguments_with_schema)",
    text: "<|tool_call:start|>grep_files\n<|tool_arg:start|>pattern<|tool_arg:value|>TODO<|tool_arg:end|>\n<|tool_arg:start|>path<|tool_arg:value|>src<|tool_arg:end|>\n<|tool_call:end|>",
    calls: [GREP],
  },
  {
    family: "HyperCLOVA X: <arg_value> holding JSON-quoted strings",
    source: "vLLM tests/tool_parsers/test_hyperclovax_seed_think_tool_parser.py (test_single_tool_call)",
    text: '<tool_call>grep_files\n<arg_key>pattern</arg_key>\n<arg_value>"TODO"</arg_value>\n<arg_key>path</arg_key>\n<arg_value>"src"</arg_value>\n</tool_call>',
    calls: [GREP],
  },
  {
    family: "HyperCLOVA X: JSON list after a bare </think>",
    source: "vLLM tests/tool_parsers/test_hyperclovax_seed_think_tool_parser.py (test_json_after_think_end)",
    text: 'thinking</think>\n\n[{"name": "read_file", "parameters": {"path": "src/a.ts"}}]',
    calls: [READ],
  },
  {
    family: "PLaMo 3 tool-request tokens",
    source: "vLLM vllm/reasoning/plamo3_reasoning_parser.py tags; tests/tool_parsers/test_plamo3_tool_parser.py",
    text:
      "Checking the file.<|plamo:begin_tool_requests:plamo|><|plamo:begin_tool_request:plamo|><|plamo:begin_tool_name:plamo|>read_file<|plamo:end_tool_name:plamo|>" +
      '<|plamo:begin_tool_arguments:plamo|><|plamo:constrain|>json<|plamo:msg|>{"path": "src/a.ts"}<|plamo:end_tool_arguments:plamo|>' +
      "<|plamo:end_tool_request:plamo|><|plamo:end_tool_requests:plamo|><|plamo:tag|>",
    calls: [READ],
  },
  {
    family: "Continue system-message tools: ```tool, TOOL_NAME, BEGIN_ARG … END_ARG",
    source:
      "continuedev/continue core/tools/systemMessageTools (EXAMPLE_DYNAMIC_TOOL_CALL); model transcripts in the code corpus",
    text: 'Now let me look at the file:\n\n```tool\nTOOL_NAME: read_file\nBEGIN_ARG: path\n"src/a.ts"\nEND_ARG\n```',
    calls: [READ],
  },
  {
    family: "Continue system-message tools: two unquoted arguments",
    source: "continuedev/continue EXAMPLE_DYNAMIC_TOOL_CALL (values written bare, one argument per block)",
    text: "```tool\nTOOL_NAME: grep_files\nBEGIN_ARG: pattern\nTODO\nEND_ARG\nBEGIN_ARG: path\nsrc\nEND_ARG\n```",
    calls: [GREP],
  },
  {
    family: "Gorilla OpenFunctions v2: <<function>>name(k=v), parallel",
    source: "gorilla-llm/gorilla-openfunctions-v2 output (kkr-genweb/gorilla-bench-function-calling README)",
    text: "<<function>>read_file(path='src/a.ts')<<function>>grep_files(pattern='TODO', path='src')",
    calls: [READ, GREP],
  },
  {
    family: "AutoGPT: thoughts and command {name, args}",
    source:
      "Significant-Gravitas/AutoGPT DEFAULT_RESPONSE_FORMAT; zabirauf/AutoGPT.js AutoGPT/utils/prompt.ts JSON_SCHEMA",
    text: '{\n  "thoughts": {\n    "text": "I need the file.",\n    "reasoning": "It holds the parser.",\n    "plan": "- read it\\n- fix it",\n    "criticism": "none",\n    "speak": "Reading the file."\n  },\n  "command": {"name": "read_file", "args": {"path": "src/a.ts"}}\n}',
    calls: [READ],
  },
  {
    family: "AutoGPT.js YAML: command: name/args, then thoughts",
    source: "zabirauf/AutoGPT.js AutoGPT/utils/prompt.ts YAML_SCHEMA",
    text: "command:\n  name: read_file\n  args:\n    path: src/a.ts\nthoughts:\n  text: I need the file.\n  reasoning: It holds the parser.\n  criticism: none\n",
    calls: [READ],
  },
  {
    family: "smolagents ToolCallingAgent: Action: then an indented JSON blob",
    source: 'huggingface/smolagents prompts/toolcalling_agent.yaml (Action:\\n{\\n  "name": …, "arguments": …})',
    text: 'Thought: I need to see the file first.\nAction:\n{\n  "name": "read_file",\n  "arguments": {"path": "src/a.ts"}\n}',
    calls: [READ],
  },
  {
    family: "smolagents: arguments as a plain string",
    source: 'Hugging Face agents course, smolagents tool-calling agents ({"name": "web_search", "arguments": "…"})',
    text: 'Action:\n{\n  "name": "run_shell_command",\n  "arguments": "ls -la src"\n}',
    calls: [shell("ls -la src")],
  },
  {
    family: "TOOL_CALL: name {json} on one line",
    source: "agent parsers in the public code corpus (parseToolCall: /^TOOL_CALL:\\s*(\\w+)\\s*(\\{.*\\})$/)",
    text: 'TOOL_CALL: grep_files {"pattern": "TODO", "path": "src"}',
    calls: [GREP],
  },
  {
    family: "TOOL_CALL: then {tool, arguments}",
    source: 'agent prompt docs in the public code corpus (Tool Call Format: TOOL_CALL:\\n{"tool": …, "arguments": …})',
    text: 'TOOL_CALL:\n{\n  "tool": "list_files",\n  "arguments": {\n    "path": "src"\n  }\n}',
    calls: [{ name: "list_files", args: { path: "src" } }],
  },
  {
    family: "bare positional call",
    source:
      'chimera-defi/Etc-mono-repo bench/parsers/PARSER_GUIDE.md (phi4-mini, jan-v3, smollm3: search_files("*.py"))',
    text: 'read_file("src/a.ts")',
    calls: [READ],
  },
  {
    family: "bare call with name: value arguments",
    source: "chimera-defi/Etc-mono-repo bench/parsers/PARSER_GUIDE.md (get_weather(city: Antwerp))",
    text: "grep_files(pattern: TODO, path: src)",
    calls: [GREP],
  },
  {
    family: "two positional values: which optional one the second is, the schema does not say",
    source: "chimera-defi/Etc-mono-repo bench/parsers/PARSER_GUIDE.md (bare function calls with positional values)",
    text: 'grep_files("TODO", "src")',
    calls: [GREP],
    left: "grep_files has one required parameter; the second value could be path or glob, and guessing runs a different search",
  },
  {
    family: "an emphasised name() line, then a fence holding the arguments",
    source: "localmind-ai/open-functions README (*get_weather()* then a fenced JSON object)",
    text: '*read_file()*\n```\n{\n  "path": "src/a.ts"\n}\n```',
    calls: [READ],
  },
  {
    family: "a bold tool name, then a ```json fence of arguments",
    source: "RWKV's bold label (test_rwkv_tool_parser.py) with the name in it, as small models write it",
    text: 'I will read it.\n\n**read_file**\n```json\n{"path": "src/a.ts"}\n```',
    calls: [READ],
  },
  {
    family: "a heading naming the tool, then a ```json fence of arguments",
    source: "Markdown-trained replies: a heading per step (`### read_file`), as in the brief's list of unread forms",
    text: '### read_file\n```json\n{"path": "src/a.ts"}\n```',
    calls: [READ],
  },
  {
    family: "Gemini functionCall {name, args}",
    source:
      "ai.google.dev/gemini-api/docs/function-calling response parts (via navadimml/chitta-advanced GEMINI_FUNCTION_CALLING_GUIDE.md)",
    text: '{"functionCall": {"name": "read_file", "args": {"path": "src/a.ts"}}}',
    calls: [READ],
  },
  {
    family: "OpenAI legacy function_call {name, arguments-as-string}",
    source:
      "OpenAI functions API message shape (function_call), unwrapped by Gemini/OpenAI-format parsers in the code corpus",
    text: '{"function_call": {"name": "read_file", "arguments": "{\\"path\\": \\"src/a.ts\\"}"}}',
    calls: [READ],
  },
  {
    family: "MCP tools/call JSON-RPC request",
    source: "Model Context Protocol spec, tools/call (CallToolRequest params {name, arguments})",
    text: '{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "read_file", "arguments": {"path": "src/a.ts"}}}',
    calls: [READ],
  },
  {
    family: "<function-name> and <arguments> tags",
    source:
      "dnakov/anon-kode issue 23 (qwen2.5-coder:32b writing <function-name>…</function-name><arguments>{…}</arguments>)",
    text: 'Let me read the file.\n\n<function-name>read_file</function-name>\n<arguments>{"path": "src/a.ts"}</arguments>',
    calls: [READ],
  },
  {
    family: "Apertus <|tools_prefix|> with name-keyed objects",
    source:
      "sglang Apertus2509Detector tests; vLLM apertus_tool_parser (<|tools_prefix|>[{name: args}]<|tools_suffix|>)",
    text: 'before<|tools_prefix|>[{"read_file": {"path": "src/a.ts"}}, {"list_files": {}}]<|tools_suffix|>after',
    calls: [READ, { name: "list_files", args: {} }],
  },
  {
    family: "Llama 4 <|python_start|>[…]<|python_end|>",
    source: "vLLM tests/tool_parsers/test_llama4_pythonic_tool_parser.py (PYTHON_TAG_FUNCTION_OUTPUT)",
    text: "Here's a call: <|python_start|>[read_file(path='src/a.ts')]<|python_end|>",
    calls: [READ],
  },
  {
    family: "Functionary v2 <|from|>/<|recipient|>/<|content|>",
    source:
      "meetkai functionary v2 chat template (llama.cpp functionary example test_response; HF chat-template tests)",
    text: '<|from|>assistant\n<|recipient|>all\n<|content|>I will read the file\n<|from|>assistant\n<|recipient|>read_file\n<|content|>{"path": "src/a.ts"}<|stop|>',
    calls: [READ],
  },
];

/** Real material that must run nothing. */
const NEGATIVES: { what: string; source: string; text: string }[] = [
  {
    what: "example output in docs: Function called / Arguments lines",
    source: "vLLM docs/features/tool_calling.md quickstart (Example output: Function called: … Arguments: …)",
    text: 'Example output:\n\nFunction called: read_file\nArguments: {"path": "src/a.ts"}\nResult: the file\'s text',
  },
  {
    what: "a shell command shown for the user to run",
    source: "vLLM tests/tool_parsers/test_rwkv_tool_parser.py (keeps a bash fence as content)",
    text: "You can run this command manually:\n```bash\nperl -0pi -e 's/return a - b/return a + b/' src/calc.ts\n```\n",
  },
  {
    what: "a smolagents CodeAgent code action (Python we cannot run)",
    source: "huggingface/smolagents CodeAgent prompt (Thought: … Code: ```py … ```<end_code>)",
    text: 'Thought: I will read the file and print it.\nCode:\n```py\nresult = read_file(path="src/a.ts")\nprint(result)\n```<end_code>',
  },
  {
    what: "a model saying what the request would look like",
    source: 'Gitlawb/openclaude issue 433 (qwen2.5-coder: "The correct request would look like this...")',
    text: 'The correct request would look like this:\n\n{"name": "read_file", "arguments": {"path": "src/a.ts"}}\n\nbut I cannot reach your files from here, so please run it and paste the output.',
  },
  {
    what: "a model musing about which tool it could call",
    source: "dnakov/anon-kode issue 23 (qwen2.5-coder:32b reply, names rewritten to ours)",
    text:
      "To review the code in src/a.ts, you need to first read its contents.\n\nGiven your request, here is how you can call the function to accomplish this:\n\n" +
      '<function-name>read_file</function-name>\n<arguments>{"path": "src/a.ts"}</arguments>\n\n' +
      "However, note that another tool may suit this file better. The appropriate tool to read this type of file would be the edit tool with no change, if no read tool exists.",
  },
  {
    what: "an echoed command list from the prompt",
    source: 'zabirauf/AutoGPT.js AutoGPT/utils/prompt.ts (COMMANDS: 1. name: "command", args: "arg": "<value>")',
    text: 'COMMANDS:\n\n1. Read file: "read_file", args: "path": "<path>"\n2. Search: "grep_files", args: "pattern": "<pattern>"',
  },
  {
    what: "a Python function definition and its use",
    source: "vLLM docs/features/tool_calling.md quickstart (def get_weather … then a call), with our names",
    text: 'Here is a helper:\n\n```python\ndef read_file(path: str) -> str:\n    with open(path) as f:\n        return f.read()\n\nprint(read_file("src/a.ts"))\n```',
  },
  {
    what: "TypeScript calling an MCP tool",
    source: "modelcontextprotocol/typescript-sdk README (client.callTool({ name, arguments }))",
    text: 'Call it from the client:\n\n```ts\nconst result = await client.callTool({\n  name: "read_file",\n  arguments: { path: "src/a.ts" },\n});\n```',
  },
  {
    what: "docs showing a Gemini functionCall part",
    source: "navadimml/chitta-advanced GEMINI_FUNCTION_CALLING_GUIDE.md (Response Structure)",
    text: 'When the model calls a function, the response part looks like this:\n\n```json\n{"functionCall": {"name": "read_file", "args": {"path": "src/a.ts"}}}\n```\n\nYour code runs the function and sends back a functionResponse part.',
  },
  {
    what: "docs showing an MCP tools/call request",
    source: "Model Context Protocol spec, tools/call example",
    text: 'To invoke a tool, the client sends a request such as:\n\n{"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "read_file", "arguments": {"path": "src/a.ts"}}}\n\nThe server answers with the tool\'s content.',
  },
  {
    what: "a Continue tool definition (not a call)",
    source: "continuedev/continue core/tools/systemMessageTools (EXAMPLE_DYNAMIC_TOOL, ```tool_definition)",
    text: "```tool_definition\nTOOL_NAME: read_file\nTOOL_ARG: path (string, required)\nThe file to read\nEND_ARG\n```",
  },
  {
    what: "echoed Gorilla function definitions",
    source: "kkr-genweb/gorilla-bench-function-calling README (<<function>>[{definitions}] <<question>>)",
    text: '<<function>>[{"name": "read_file", "description": "Read a file", "parameters": {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]}}]\n\n<<question>>What is in src/a.ts?',
  },
  {
    what: "a plan in prose naming tools and values",
    source: "small models' planning replies (Ollama issue reports: a model describing its next calls)",
    text: "I would call read_file with the path src/a.ts, then grep_files for TODO in src, and report back.",
  },
  {
    what: "a Kubernetes manifest with command and args",
    source: "kubernetes.io docs, Define a Command and Arguments for a Container (command-demo pod)",
    text: '```yaml\napiVersion: v1\nkind: Pod\nmetadata:\n  name: command-demo\nspec:\n  containers:\n  - name: command-demo-container\n    image: debian\n    command: ["printenv"]\n    args: ["HOSTNAME", "KUBERNETES_PORT"]\n```',
  },
  {
    what: "Python help() output of a same-named function",
    source: "Python's pydoc output format (help(fn): name(params) -> type, then the docstring)",
    text: "Help on function read_file in module tools:\n\nread_file(path: str) -> str\n    Read a file and return its text.",
  },
  {
    what: "a JS stack trace through a same-named function",
    source: "Node.js error stack format (at fn (file:line:col))",
    text: "TypeError: Cannot read properties of undefined\n    at read_file (src/a.ts:10:5)\n    at main (src/index.ts:3:1)",
  },
  {
    what: "a YAML config whose keys look like a call",
    source: "GitHub Actions workflow syntax (steps with name and run)",
    text: "steps:\n  - name: read_file\n    run: cat src/a.ts\n  - name: test\n    run: npm test\n",
  },
];

describe("held-out dialects of tool calls written as text", () => {
  for (const c of HELD_OUT) {
    const test = c.left ? it.fails : it;
    test(`${c.family}${c.left ? ` (left: ${c.left})` : ""}`, () => {
      const r = recoverToolCalls(c.text, TOOLS);
      expect(r.calls).toEqual(c.calls);
    });
  }

  it.each(NEGATIVES.map((n) => [n.what, n.text] as const))("never a call: %s", (_what, text) => {
    expect(recoverToolCalls(text, TOOLS).calls).toEqual([]);
  });
});

// Neither `required` nor `properties` gives a signature's order: edit_file's schema lists
// old_string first, so by position `edit_file("src/a.ts", "a", "b")` would edit the wrong text.
// Only LangChain's ReAct rule (ReActSingleInputOutputParser: a plain input fills the tool's one
// required string parameter) names a value written without a name.
describe("values written without a name", () => {
  it("are never placed by a schema's order", () => {
    for (const text of ['edit_file("src/a.ts", "a", "b")', 'write_file("src/a.ts", "x")', 'read_file("src/a.ts", 20)'])
      expect(recoverToolCalls(text, TOOLS).calls, text).toEqual([]);
  });

  it("fill the one required string parameter, beside named ones", () => {
    expect(recoverToolCalls('grep_files("TODO", path="src")', TOOLS).calls).toEqual([GREP]);
  });
});
