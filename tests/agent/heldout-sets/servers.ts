// Set (a): inference servers' own parser tests — llama.cpp tests/test-chat.cpp and Ollama's
// model/parsers/*_test.go — with the calls rewritten onto our tools.
import { GREP, LIST, READ, READ_B, read, shell, type HeldOutSet } from "./shared.js";

const J = '{"name": "read_file", "arguments": {"path": "src/a.ts"}}';
const LC = "llama.cpp tests/test-chat.cpp";
const OL = "ollama/ollama model/parsers";

export const SERVERS: HeldOutSet = {
  name: "inference servers' parser tests",
  cases: [
    {
      what: "Hermes 2 Pro: <tool> wrapper",
      source: `${LC} (HERMES_2_PRO, <tool>)`,
      text: `<tool>\n  ${J}\n</tool>`,
      calls: [READ],
    },
    {
      what: "Hermes 2 Pro: <tools> wrapper",
      source: `${LC} (HERMES_2_PRO, <tools>)`,
      text: `<tools>\n  ${J}\n</tools>`,
      calls: [READ],
    },
    {
      what: "Hermes 2 Pro: <response> wrapper",
      source: `${LC} (HERMES_2_PRO, <response>)`,
      text: `<response>\n  ${J}\n</response>`,
      calls: [READ],
    },
    {
      what: "Hermes 2 Pro: <response> in an xml fence",
      source: `${LC} (HERMES_2_PRO, \`\`\`xml <response>)`,
      text: `\`\`\`xml\n<response>\n    ${J}\n</response>\n\`\`\``,
      calls: [READ],
    },
    {
      what: "Hermes 2 Pro: bare JSON in an xml fence",
      source: `${LC} (HERMES_2_PRO, \`\`\`xml)`,
      text: `\`\`\`xml\n  ${J}\n\`\`\``,
      calls: [READ],
    },
    {
      what: "Hermes 2 Pro: bare JSON in a plain fence",
      source: `${LC} (HERMES_2_PRO, \`\`\`)`,
      text: `\`\`\`\n${J}\n\`\`\``,
      calls: [READ],
    },
    {
      what: "Hermes 2 Pro: <function_call> inside a json fence",
      source: `${LC} (HERMES_2_PRO, \`\`\`json <function_call>)`,
      text: `\`\`\`json\n\n                    <function_call> ${J} \n                    </function_call> \n\`\`\` `,
      calls: [READ],
    },
    {
      what: "Hermes 2 Pro: <json> wrapper",
      source: `${LC} (HERMES_2_PRO, <json>)`,
      text: `<json>\n  ${J}\n</json>`,
      calls: [READ],
    },
    {
      what: "Hermes 2 Pro: <xml> wrapper, JSON over lines",
      source: `${LC} (HERMES_2_PRO, <xml>)`,
      text: '<xml>\n  {\n    "name": "read_file", "arguments": {"path": "src/a.ts"}\n  }\n</xml>',
      calls: [READ],
    },
    {
      what: "Hermes 2 Pro: <JSON> wrapper",
      source: `${LC} (HERMES_2_PRO, <JSON>)`,
      text: `<JSON>\n  ${J}\n</JSON>`,
      calls: [READ],
    },
    {
      what: "Hermes 2 Pro: bare JSON over two lines",
      source: `${LC} (HERMES_2_PRO, bare)`,
      text: '{\n  "name": "read_file", "arguments": {"path": "src/a.ts"}}',
      calls: [READ],
    },
    {
      what: "Hermes 2 Pro: two <function=…> calls",
      source: `${LC} (HERMES_2_PRO, multiple <function=>)`,
      text: '<function=read_file>{"path": "src/a.ts"}</function>\n<function=run_shell_command>{"command":"echo hello"}</function>',
      calls: [READ, shell("echo hello")],
    },
    {
      what: "Hermes 2 Pro: <function name=…> with JSON body",
      source: `${LC} (HERMES_2_PRO, <function name=>)`,
      text: '<function name="read_file">\n{"path": "src/a.ts"}\n</function>',
      calls: [READ],
    },
    {
      what: "QwQ: thinking closed without an opener, then <tool_call>",
      source: `${LC} (Qwen-QwQ-32B, thinking_forced_open)`,
      text: `I'm\nthinking</think>\n<tool_call>${J}</tool_call>`,
      calls: [READ],
    },
    {
      what: "Hermes 2 Pro: content then <tool_call>",
      source: `${LC} (message_assist_call_content)`,
      text: `Hello, world!\nWhat's up?<tool_call>\n${J}\n</tool_call>`,
      calls: [READ],
    },
    {
      what: "Llama 3.x: name and parameters",
      source: `${LC} (LLAMA_3_X)`,
      text: '{"name": "read_file", "parameters": {"path": "src/a.ts"}}',
      calls: [READ],
    },
    {
      what: "Llama 3.1: <|python_tag|> builtin-style .call()",
      source: `${LC} (LLAMA_3_X_WITH_BUILTIN_TOOLS, python.call)`,
      text: '<|python_tag|>run_shell_command.call(command="ls -la")',
      calls: [shell("ls -la")],
    },
    {
      what: "Command R7B: thinking then START_ACTION list",
      source: `${LC} (COMMAND_R7B)`,
      text: '<|START_THINKING|>I\'m\nthinking<|END_THINKING|><|START_ACTION|>[\n    {"tool_call_id": "0", "tool_name": "read_file", "parameters": {"path": "src/a.ts"}}\n]<|END_ACTION|>',
      calls: [READ],
    },
    {
      what: "Generic: tool_calls list with ids",
      source: `${LC} (GENERIC, gemma-2 / Phi-3.5)`,
      text: '{\n  "tool_calls": [\n    {\n      "name": "read_file",\n      "arguments": {\n        "path": "src/a.ts"\n      },\n      "id": "123456789"\n    }\n  ]\n}',
      calls: [READ],
    },
    {
      what: "Generic: one tool_call object",
      source: `${LC} (GENERIC, {"tool_call": {…}})`,
      text: '{"tool_call": {"name": "read_file", "arguments": {"path": "src/a.ts"}}}',
      calls: [READ],
    },
    {
      what: "FunctionGemma: escaped string",
      source: `${LC} (FUNCTION_GEMMA)`,
      text: "<start_function_call>call:read_file{path:<escape>src/a.ts<escape>}<end_function_call>",
      calls: [READ],
    },
    {
      what: "FunctionGemma: a number beside a string, after prose",
      source: `${LC} (FUNCTION_GEMMA, numeric + content)`,
      text: "Let me check that for you.<start_function_call>call:read_file{path:<escape>src/a.ts<escape>,offset:25}<end_function_call>",
      calls: [read("src/a.ts", { offset: 25 })],
    },
    {
      what: "Mistral Nemo: [TOOL_CALLS] list with an id",
      source: `${LC} (MISTRAL_NEMO)`,
      text: '[TOOL_CALLS][{"name": "read_file", "arguments": {"path": "src/a.ts"}, "id": "123456789"}]',
      calls: [READ],
    },
    {
      what: "Cogito: DeepSeek markers, a json fence for the arguments",
      source: `${OL}/cogito_test.go`,
      text: '<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>read_file\n```json\n{"path":"src/a.ts"}\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜>',
      calls: [READ],
    },
    {
      what: "DeepSeek V3: prose then two calls",
      source: `${OL}/deepseek3_test.go`,
      text: 'Getting both.<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>read_file<｜tool▁sep｜>{"path":"src/a.ts"}<｜tool▁call▁end｜><｜tool▁call▁begin｜>read_file<｜tool▁sep｜>{"path":"src/b.ts"}<｜tool▁call▁end｜><｜tool▁calls▁end｜>',
      calls: [READ, READ_B],
    },
    {
      what: "Glimmer: ATEM invoke behind a recipient",
      source: `${OL}/glimmer_test.go (glimmerTestATEM)`,
      text: ' to=read_file<|message|><atem:function_calls>\n<atem:invoke name="read_file">\n<atem:parameter name="path">src/a.ts</atem:parameter>\n</atem:invoke>\n</atem:function_calls><|eot|>',
      calls: [READ],
    },
    {
      what: "Laguna: name line, arg_key/arg_value pairs",
      source: `${OL}/laguna_test.go`,
      text: "<tool_call>grep_files\n<arg_key>pattern</arg_key>\n<arg_value>TODO</arg_value>\n<arg_key>path</arg_key>\n<arg_value>src</arg_value>\n</tool_call>",
      calls: [GREP],
    },
    {
      what: "Laguna: name line, JSON arguments",
      source: `${OL}/laguna_test.go`,
      text: '<tool_call>read_file\n{"path":"src/a.ts"}</tool_call>',
      calls: [READ],
    },
    {
      what: "Laguna: a sentence, then a bare JSON call",
      source: `${OL}/laguna_test.go`,
      text: 'Let me call the read tool.\n{"name":"read_file","arguments":{"path":"src/a.ts"}}',
      calls: [READ],
    },
    {
      what: "Ministral: [TOOL_CALLS]name[ARGS] with escaped quotes",
      source: `${OL}/ministral_test.go`,
      text: '[TOOL_CALLS]run_shell_command[ARGS]{"command": "echo \\"hello\\""}',
      calls: [shell('echo "hello"')],
    },
    {
      what: "Nemotron 3 Nano: thinking, then Qwen3-Coder XML",
      source: `${OL}/nemotron3nano_test.go`,
      text: "I should check the file...</think>\n<tool_call>\n<function=read_file>\n<parameter=path>\nsrc/a.ts\n</parameter>\n</function>\n</tool_call>",
      calls: [READ],
    },
    {
      what: "OLMo 3: pythonic inside <function_calls>",
      source: `${OL}/olmo3_test.go`,
      text: '<function_calls>read_file(path="src/a.ts")</function_calls>',
      calls: [READ],
    },
    {
      what: "OLMo 3: two calls on two lines",
      source: `${OL}/olmo3_test.go`,
      text: '<function_calls>read_file(path="src/a.ts")\nread_file(path="src/b.ts")</function_calls>',
      calls: [READ, READ_B],
    },
    {
      what: "OLMo 3: an integer keyword",
      source: `${OL}/olmo3_test.go (set_temperature(value=72))`,
      text: '<function_calls>read_file(path="src/a.ts", offset=72)</function_calls>',
      calls: [read("src/a.ts", { offset: 72 })],
    },
    {
      what: "LFM2: prose, then a pythonic list between tokens",
      source: `${OL}/lfm2_test.go`,
      text: 'I\'ll check the file.<|tool_call_start|>[read_file(path="src/a.ts")]<|tool_call_end|>',
      calls: [READ],
    },
    {
      what: "Cohere: START_ACTION with two calls, one without arguments",
      source: `${OL}/cohere_test.go`,
      text: 'plan<|END_THINKING|><|START_ACTION|>[\n    {"tool_call_id": "0", "tool_name": "read_file", "parameters": {"path": "src/a.ts"}},\n    {"tool_call_id": "1", "tool_name": "list_files", "parameters": {}}\n]<|END_ACTION|>',
      calls: [READ, LIST],
    },
    {
      what: "Qwen 3.8: thinking, prose, two Qwen3-Coder calls",
      source: `${OL}/qwen38_test.go`,
      text: "<think>\nNeed both files.\n</think>\n\nI'll check both.\n\n<tool_call>\n<function=read_file>\n<parameter=path>\nsrc/a.ts\n</parameter>\n</function>\n</tool_call>\n<tool_call>\n<function=read_file>\n<parameter=path>\nsrc/b.ts\n</parameter>\n<parameter=offset>\n5\n</parameter>\n</function>\n</tool_call>",
      calls: [READ, read("src/b.ts", { offset: 5 })],
    },
    {
      what: "GLM-4.7: answer text then arg_key pairs without newlines",
      source: `${OL}/glm47_test.go`,
      text: "plan</think>Answer<tool_call>read_file<arg_key>path</arg_key><arg_value>src/a.ts</arg_value><arg_key>limit</arg_key><arg_value>3</arg_value></tool_call>",
      calls: [read("src/a.ts", { limit: 3 })],
    },
  ],
  negatives: [
    {
      what: "a tool_call tag inside unclosed thinking",
      source: `${LC} (<think><tool_call>nah uhg</tool_call>)`,
      text: "<think><tool_call>nah uhg</tool_call>",
    },
    {
      what: "an empty JSON fence after an answer",
      source: `${LC} (message_assist_thoughts_unparsed_md)`,
      text: "<think>I'm\nthinking</think>Hello, world!\nWhat's up?\n```json\n{}```",
    },
    {
      what: "a generic response object (an answer, not a call)",
      source: `${LC} (GENERIC, {"response": …})`,
      text: '{\n  "response": "Hello, world!\\nWhat\'s up?"\n}',
    },
    {
      what: "a tool's output quoted in an answer",
      source: `${OL}/deepseek3_test.go (tool output in content)`,
      text: "Here's the result: <｜tool▁output▁begin｜>read_file: 22 lines<｜tool▁output▁end｜> Hope that helps!",
    },
    {
      what: "DeepSeek tool outputs block",
      source: `${OL}/cogito_test.go (tool outputs)`,
      text: '<｜tool▁outputs▁begin｜><｜tool▁output▁begin｜>{"path": "src/a.ts", "lines": 22}<｜tool▁output▁end｜><｜tool▁outputs▁end｜>',
    },
    {
      what: "a special token named in prose",
      source: `${OL}/glimmer_test.go (Use \`<|start|>\` here.)`,
      text: "Use `<|start|>` here, then `<tool_call>` for read_file.",
    },
    {
      what: "unparseable JSON arguments",
      source: "sgl-project/sglang sgl-model-gateway tests (tool parser fallback: invalid json)",
      text: '{"name": "read_file", "arguments": invalid json here}',
    },
    {
      what: "a helper defined and printed, unfenced",
      source:
        "ollama/ollama-python examples/tools.py (a function defined, then called), our names, pasted without a fence",
      text: 'def read_file(path):\n    with open(path) as f:\n        return f.read()\n\nprint(read_file(path="src/a.ts"))',
    },
    {
      what: "the server's response message shown in docs",
      source: "ggml-org/llama.cpp docs/function-calling.md (a chat completion answering with tool_calls)",
      text: 'The server then returns the call in the message:\n```json\n{"role":"assistant","content":null,"tool_calls":[{"id":"call_1","type":"function","function":{"name":"read_file","arguments":"{\\"path\\":\\"src/a.ts\\"}"}}]}\n```',
    },
    {
      what: "client code passing a tool and reading its calls",
      source: "ollama/ollama-python README (tools=[…], response.message.tool_calls), our names",
      text: "```python\nresponse = client.chat(model='llama3.1', messages=messages, tools=[read_file])\nfor call in response.message.tool_calls:\n    print(call.function.name)\n```",
    },
  ],
};
