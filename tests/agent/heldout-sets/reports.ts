// Set (c): raw model output quoted in users' bug reports (ollama, vLLM, agents' trackers), the
// calls renamed onto our tools with arguments that fit their schemas.
import { GREP, LIST, READ, READ_B, read, shell, type HeldOutSet } from "./shared.js";

const WEB = { name: "web_search", args: { query: "latest news" } };

export const REPORTS: HeldOutSet = {
  name: "users' bug reports quoting raw output",
  cases: [
    {
      what: "two pretty-printed JSON calls on one line",
      source: "sgomez/ollama-ai-provider#11 (llama3.1 with a tool prompt: {…} {…})",
      text: '{\n  "name": "read_file",\n  "arguments": {\n    "path": "src/a.ts"\n  }\n} {\n  "name": "grep_files",\n  "arguments": {\n    "pattern": "TODO",\n    "path": "src"\n  }\n}',
      calls: [READ, GREP],
    },
    {
      what: "qwen3:32b: the whole reply is a JSON call",
      source: "ollama/ollama#11185 (qwen3:32b content)",
      text: '{"name": "grep_files", "arguments": {"pattern": "TODO", "path": "src"}}',
      calls: [GREP],
    },
    {
      what: "Llama 4 via llama3_json: <|python_start|> JSON <|python_end|>",
      source: "vllm-project/vllm#16214 (jhuntbach-bc's content)",
      text: '<|python_start|>{"name": "web_search", "parameters": {"query": "latest news"}}<|python_end|>',
      calls: [WEB],
    },
    {
      what: "Llama 4 Scout: type/name/parameters JSON",
      source: "vllm-project/vllm#46863 (JSON tool calls left in content)",
      text: '{"type": "function", "name": "run_shell_command", "parameters": {"command": "echo hello"}}',
      calls: [shell("echo hello")],
    },
    {
      what: "Llama 3: a JSON call, then a question",
      source: "vllm-project/vllm#19024 (JSON object with plain text after it)",
      text: '{"type": "function", "name": "list_files", "parameters": {}} \n\nWould you like to know more about a specific file?',
      calls: [LIST],
    },
    {
      what: "Llama 4: a sentence, then a pythonic list",
      source: "vllm-project/vllm#22917 (raw content before the calls; adapted)",
      text: 'To find the markers I will list the files and then search them.\n\n[list_files(), grep_files(pattern="TODO", path="src")]',
      calls: [LIST, GREP],
    },
    {
      what: "Hermes 4: thinking closer, JSON, tool_call closer",
      source: "NousResearch/hermes-agent#742 (</think>{…}</tool_call>, missing open tag)",
      text: '</think>{"name":"read_file","arguments":{"path":"src/a.ts"}}</tool_call>',
      calls: [READ],
    },
    {
      what: "Hermes 4: bare JSON for a known tool",
      source: "NousResearch/hermes-agent#742 (bare JSON, only for known tools)",
      text: '{"name":"run_shell_command","arguments":{"command":"git log -1"}}',
      calls: [shell("git log -1")],
    },
    {
      what: "gemma3nTools: <tool_call> with an args key",
      source: "ollama/ollama#18357 (mashriram/gemma3nTools:e4b output)",
      text: '<tool_call>\n{"name": "run_shell_command", "args": {"command": "ls"}}\n</tool_call>',
      calls: [shell("ls")],
    },
    {
      what: "gemma3-tools template: <tool> with parameters",
      source: "ollama/ollama#9680 (PetrosStav/gemma3-tools template's format)",
      text: '<tool>\n{"name": "read_file", "parameters": {"path": "src/a.ts"}}\n</tool>',
      calls: [READ],
    },
    {
      what: 'Gemma 4: <|"|>-quoted values, keys in any order',
      source: "ollama/ollama#15315 (gemma4:e4b call:grep{…} in the log)",
      text: '<|tool_call>call:grep_files{glob:<|"|>*.py<|"|>,path:<|"|>src<|"|>,pattern:<|"|>TODO<|"|>}<tool_call|>',
      calls: [{ name: "grep_files", args: { glob: "*.py", path: "src", pattern: "TODO" } }],
    },
    {
      what: "granite3.1-dense: a JSON call as the reply",
      source: "nugget/thane-ai-agent#21 (granite, qwen2.5-coder JSON in content)",
      text: '{"name": "read_file", "arguments": {"path": "src/a.ts"}}',
      calls: [READ],
    },
    {
      what: "granite: a JSON list of calls",
      source: "nugget/thane-ai-agent#21 (JSON array: [{…}])",
      text: '[{"name": "read_file", "arguments": {"path": "src/a.ts"}}, {"name": "read_file", "arguments": {"path": "src/b.ts"}}]',
      calls: [READ, READ_B],
    },
    {
      what: "Qwen2.5-Coder via MLX: the call in a Hermes tag",
      source: "jundot/omlx#2565 (Qwen2.5-Coder tool call JSON leaking into content)",
      text: '<tool_call>\n{"name": "read_file", "arguments": {"path": "test.txt"}}\n</tool_call>',
      calls: [{ name: "read_file", args: { path: "test.txt" } }],
    },
    {
      what: "Qwen3-Coder via llama.cpp: the XML call after a sentence",
      source: "anomalyco/opencode#26162 (Qwen3-Coder-30B tool call output in content)",
      text: "I'll check which packages are installed.\n\n<function=run_shell_command>\n<parameter=command>\nnpm ls --depth=0\n</parameter>\n</function>\n</tool_call>",
      calls: [shell("npm ls --depth=0")],
    },
    {
      what: "Qwen via Anthropic /v1/messages: name tag, then parameter tags",
      source: "signalnine/q27#24 (<name>task … <parameter=…> as text)",
      text: "<name>delegate\n</parameter>\n<parameter=task>\nAdd a timestamp comment to hello.py\n</parameter>\n<parameter=agent_type>\ngeneral\n</parameter>\n</function>",
      calls: [{ name: "delegate", args: { task: "Add a timestamp comment to hello.py", agent_type: "general" } }],
    },
    {
      what: "qwen2.5: a fenced JSON call after a sentence",
      source: "anomalyco/opencode#18454 (qwen2.5 keeps returning JSON)",
      text: 'I\'ll list the project files first.\n\n```json\n{"name": "list_files", "arguments": {"path": "."}}\n```',
      calls: [{ name: "list_files", args: { path: "." } }],
    },
    {
      what: "Llama 3.1: <|python_tag|> JSON with type, a number as a string",
      source: 'meta-llama/llama-models#169 (3.1 JSON format quoted: "n": "10")',
      text: '<|python_tag|>{\n    "type": "function",\n    "name": "read_file",\n    "parameters": {\n        "path": "src/a.ts",\n        "offset": "10"\n    }\n}<|eom_id|>',
      calls: [read("src/a.ts", { offset: 10 })],
    },
    {
      what: "Llama 3.1: <function=…> then eot",
      source: "meta-llama/llama-models#169 (<function=trending_songs>{…}</function><|eot_id|>)",
      text: '<function=read_file>{"path": "src/a.ts", "limit": 10}</function><|eot_id|>',
      calls: [read("src/a.ts", { limit: 10 })],
    },
    {
      what: "LFM2.5 in LM Studio: pythonic list between tokens",
      source: 'lmstudio-ai/lmstudio-bug-tracker#1979 (<|tool_call_start|>[list_directory(path="desktop")]…)',
      text: '<|tool_call_start|>[list_files(path="desktop")]<|tool_call_end|>',
      calls: [{ name: "list_files", args: { path: "desktop" } }],
    },
    {
      what: "LFM2.5: single-quoted value",
      source: "theroyallab/tabbyAPI#464 (raw output: browser_navigate(url='…'))",
      text: "<|tool_call_start|>[web_fetch(url='https://example.com/docs')]<|tool_call_end|>",
      calls: [{ name: "web_fetch", args: { url: "https://example.com/docs" } }],
    },
    {
      what: "llama-3.3-70b in LM Studio: type/name/parameters, strings for numbers",
      source: 'lmstudio-ai/lmstudio-js#277 ({"type": "function", "name": "add", "parameters": {"a": "1"}})',
      text: 'assistant: {"type": "function", "name": "read_file", "parameters": {"path": "src/a.ts", "limit": "1"}}',
      calls: [read("src/a.ts", { limit: 1 })],
    },
    {
      what: "llama-3.1-8b in LM Studio: name( JSON object )",
      source: 'lmstudio-ai/lmstudio-js#277 (add({"a":1,"b":1}))',
      text: ' read_file({"path":"src/a.ts","limit":1})',
      calls: [read("src/a.ts", { limit: 1 })],
    },
    {
      what: "gpt-oss in LM Studio: harmony header then JSON",
      source:
        "lmstudio-ai/lmstudio-bug-tracker#942 (Model Output: <|start|>assistant<|channel|>commentary to=functions.x<|constrain|>json<|message|>{…})",
      text: '<|start|>assistant<|channel|>commentary to=functions.write_file<|constrain|>json<|message|>{"path":"notes.txt","content":"Hello"}',
      calls: [{ name: "write_file", args: { path: "notes.txt", content: "Hello" } }],
    },
    {
      what: "Llama 4 Maverick: pythonic list missing its closing bracket",
      source: "vllm-project/vllm#30722 (malformed, missing closing ])",
      text: '[grep_files(pattern="TODO", path="src")',
      calls: [GREP],
    },
  ],
  negatives: [
    {
      what: "a Gemma 4 call whose quoting broke mid-value",
      source: "ollama/ollama#15315 (pattern:':\\s*\\w+'<|\"|>, parse failed)",
      text: '<|tool_call>call:grep_files{path:<|"|>src<|"|>,pattern:\':\\s*\\w+\'<|"|>}<tool_call|>',
    },
    {
      what: "a user's curl reproduction with a tools array",
      source: "ollama/ollama#10899 (request body quoted in the report)",
      text: 'Request:\n```sh\ncurl http://localhost:11434/api/chat -d \'{\n  "model": "qwen2.5-coder:7b",\n  "tools": [{"type": "function", "function": {"name": "read_file", "parameters": {"type": "object", "properties": {"path": {"type": "string"}}}}}]\n}\'\n```',
    },
    {
      what: "a server's JSON response quoted in an answer",
      source: "ollama/ollama#8337 (response with tool_calls pasted as a log)",
      text: 'Here is what the server returned:\n```\n[{\n  "message": {\n    "content": "",\n    "role": "assistant",\n    "tool_calls": [{"function": {"arguments": {"path": "src/a.ts"}, "name": "read_file"}}]\n  },\n  "model": "llama3.1"\n}]\n```\nThe content is always empty when a tool is called.',
    },
    {
      what: "a printed log of a call that already ran",
      source: "ollama/ollama-python#357 (Calling function: … Arguments: …)",
      text: "This prints the following:\n```\nCalling function: read_file\nArguments: {'path': 'src/a.ts'}\nFunction output: 72340\n```",
    },
    {
      what: "a Python loop dispatching calls by name",
      source: "ollama/ollama-python#357 (the reporter's dispatch code)",
      text: "```python\nfor tool in response.message.tool_calls:\n    if function_to_call := toolfuncs[tool.function.name]:\n        output = function_to_call(**tool.function.arguments)\n        read_file(path='src/a.ts')\n```",
    },
    {
      what: "a call considered in thinking, then a prose answer",
      source: "ollama/ollama#9137 (DeepSeek R1 reasoning mixed into content; adapted)",
      text: '<think>\nThe user wants the file. I could call read_file with {"path": "src/a.ts"} but the user pasted it already.\n</think>\nThe file is already in your message; the bug is on line 3.',
    },
    {
      what: "a template instruction quoted in a comment",
      source: "ollama/ollama#9680 (the template's 'format your response as JSON' text)",
      text: 'When you need to use a tool, format your response as JSON as follows:\n<tool>\n{"name": "tool_name", "parameters": {"param1": "value1", "param2": "value2"}}\n</tool>',
    },
    {
      what: "an expected-vs-actual block in a report",
      source: "Gitlawb/openclaude#433 (Expected Behavior / Actual Behavior)",
      text: 'Expected: the agent runs the tool.\nActual: instead of executing the tool, the model returns a raw tool call:\n\n{\n  "name": "read_file",\n  "arguments": {\n    "path": "src/a.ts"\n  }\n}\n\nNo actual tool execution occurs.',
    },
    {
      what: "a report describing the JSON in a sentence",
      source: "anomalyco/opencode#18454 (qwen2.5 returns JSON; described in prose), our names",
      text: 'When I ask qwen2.5-coder to read a file it answers with `{"name": "read_file", "arguments": {"path": "src/a.ts"}}` instead of calling the tool.',
    },
    {
      what: "a todo status the tool's enum refuses (done)",
      source: "MoonshotAI/kimi-code#1229 and artokun/comfyui-mcp#1018 (models write their own todo status spellings)",
      text: '<tool_call>\n{"name": "todo_write", "arguments": {"todos": [{"content": "Read the file", "status": "done"}]}}\n</tool_call>',
    },
    {
      what: "a todo status the tool's enum refuses (deleted)",
      source: 'obra/superpowers#1491 (TodoWrite InputValidationError: status "deleted")',
      text: '{"name": "todo_write", "arguments": {"todos": [{"content": "Old step", "status": "deleted"}]}}',
    },
    {
      what: "a report narrating what the model wrote, the call inline",
      source: "NousResearch/hermes-agent#742 (the model's text-written call, narrated; adapted)",
      text: 'As you can see in the transcript, the assistant wrote <tool_call>{"name": "read_file", "arguments": {"path": "src/a.ts"}}</tool_call> and the runtime executed it before replying with the file.',
    },
    {
      what: "a maintainer explaining what the model prints",
      source: "sgomez/ollama-ai-provider#11 (detecting the JSON a model writes into its answer; adapted)",
      text: 'When the model wants a tool, it prints something like\n{"name": "read_file", "arguments": {"path": "src/a.ts"}}\nand your code has to parse it.',
    },
    {
      what: "an answer recounting a call that already ran",
      source: "NousResearch/hermes-agent#742 (a Hermes call recounted in a later answer; adapted)",
      text: 'Previously you called:\n<tool_call>\n{"name": "read_file", "arguments": {"path": "src/a.ts"}}\n</tool_call>\nand it returned the file, which exports one constant, so nothing else needs reading.',
    },
  ],
};
