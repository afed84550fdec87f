// Set (b): formats as chat templates and the servers' format detectors document them — SGLang's
// python/sglang/srt/function_call/*_detector.py docstrings and model cards — rewritten onto our tools.
import { GREP, LIST, READ, READ_B, read, shell, type HeldOutSet } from "./shared.js";

const SG = "sgl-project/sglang python/sglang/srt/function_call";

export const TEMPLATES: HeldOutSet = {
  name: "chat templates' documented formats",
  cases: [
    {
      what: "BerryLM: <tool_call><function=…><parameter=…>",
      source: `${SG}/berrylm_detector.py (docstring)`,
      text: "<tool_call>\n<function=grep_files>\n<parameter=pattern>\nTODO\n</parameter>\n<parameter=path>\nsrc\n</parameter>\n</function>\n</tool_call>",
      calls: [GREP],
    },
    {
      what: "BerryLM: a parameter closed by the next one",
      source: `${SG}/berrylm_detector.py (parameter ends at the next <parameter=)`,
      text: "<tool_call>\n<function=read_file>\n<parameter=path>\nsrc/a.ts\n<parameter=limit>\n40\n</parameter>\n</function>\n</tool_call>",
      calls: [read("src/a.ts", { limit: 40 })],
    },
    {
      what: "dots: invoke inside dots_function_call",
      source: `${SG}/dots_detector.py (docstring)`,
      text: '<dots_function_call>\n<invoke name="grep_files">\n<parameter name="pattern">TODO</parameter>\n<parameter name="path">src</parameter>\n</invoke>\n</dots_function_call>',
      calls: [GREP],
    },
    {
      what: "dots: two invokes in one block",
      source: `${SG}/dots_detector.py (multiple invokes in one block)`,
      text: '<dots_function_call>\n<invoke name="read_file">\n<parameter name="path">src/a.ts</parameter>\n</invoke>\n<invoke name="read_file">\n<parameter name="path">src/b.ts</parameter>\n</invoke>\n</dots_function_call>',
      calls: [READ, READ_B],
    },
    {
      what: "dots: JSON fallback inside the block",
      source: `${SG}/dots_detector.py (JSON object accepted as a fallback)`,
      text: '<dots_function_call>{"name": "read_file", "arguments": {"path": "src/a.ts"}}</dots_function_call>',
      calls: [READ],
    },
    {
      what: "poolside Laguna-XS.2: name then arg pairs",
      source: `${SG}/poolside_v1_detector.py (wire format)`,
      text: "<tool_call>run_shell_command\n<arg_key>command</arg_key>\n<arg_value>npm test</arg_value>\n</tool_call>",
      calls: [shell("npm test")],
    },
    {
      what: "poolside: a call with no arguments, no newline",
      source: `${SG}/poolside_v1_detector.py (<tool_call>now</tool_call>)`,
      text: "<tool_call>list_files</tool_call>",
      calls: [LIST],
    },
    {
      what: "Inkling: message_model header, JSON with args",
      source: `${SG}/inkling_detector.py (docstring)`,
      text: '<|message_model|>read_file<|content_invoke_tool_json|>{"name":"read_file","args":{"path":"src/a.ts"}}<|end_message|>',
      calls: [READ],
    },
    {
      what: "Ling 3: GLM-4.5 pairs right after the name",
      source: `${SG}/ling3_detector.py (first argument tag immediately)`,
      text: "<tool_call>read_file<arg_key>path</arg_key><arg_value>src/a.ts</arg_value></tool_call>",
      calls: [READ],
    },
    {
      what: "Ling 3: GLM-4.5 pairs after a newline",
      source: `${SG}/ling3_detector.py (newline after the name)`,
      text: "<tool_call>grep_files\n<arg_key>pattern</arg_key>\n<arg_value>TODO</arg_value>\n<arg_key>path</arg_key>\n<arg_value>src</arg_value>\n</tool_call>",
      calls: [GREP],
    },
    {
      what: "MiniCPM-4: function with param children",
      source: `${SG}/minicpm4_xml_detector.py (docstring)`,
      text: '<function name="grep_files"><param name="pattern">TODO</param><param name="path">src</param></function>',
      calls: [GREP],
    },
    {
      what: "MiniCPM-4: a CDATA value",
      source: `${SG}/minicpm4_xml_detector.py (CDATA example)`,
      text: '<function name="write_file"><param name="path">notes.txt</param><param name="content"><![CDATA[line one\nline two]]></param></function>',
      calls: [{ name: "write_file", args: { path: "notes.txt", content: "line one\nline two" } }],
    },
    {
      what: "IQuest Q1: GLM-4.7 pairs in its own tag",
      source: `${SG}/iquest_q1_detector.py`,
      text: "<iquest_tool_call>read_file<arg_key>path</arg_key><arg_value>src/a.ts</arg_value></iquest_tool_call>",
      calls: [READ],
    },
    {
      what: "Phi-4-mini: functools[…]",
      source: "microsoft/Phi-4-mini-instruct tool format; vLLM phi4mini_tool_parser (functools\\[(.*?)\\])",
      text: 'functools[{"name": "read_file", "arguments": {"path": "src/a.ts"}}]',
      calls: [READ],
    },
    {
      what: "Hammer 2.1: a JSON list in a json fence",
      source: "MadeAgents/Hammer2.1-7b model card (```json [{name, arguments}] ```)",
      text: '```json\n[{"name": "read_file", "arguments": {"path": "src/a.ts"}}, {"name": "grep_files", "arguments": {"pattern": "TODO", "path": "src"}}]\n```',
      calls: [READ, GREP],
    },
    {
      what: "watt-tool: a pythonic list",
      source: "watt-ai/watt-tool-8B model card ([func_name1(params_name1=params_value1)])",
      text: '[read_file(path="src/a.ts"), grep_files(pattern="TODO", path="src")]',
      calls: [READ, GREP],
    },
    {
      what: "xLAM-2: a JSON list of calls",
      source: "Salesforce/Llama-xLAM-2-8b-fc-r model card (list of {name, arguments})",
      text: '[{"name": "read_file", "arguments": {"path": "src/a.ts"}}]',
      calls: [READ],
    },
    {
      what: "Arch-Function: <tool_call> with JSON",
      source: "katanemo/Arch-Function-3B model card (<tool_call>…</tool_call>)",
      text: '<tool_call>\n{"name": "run_shell_command", "arguments": {"command": "git status"}}\n</tool_call>',
      calls: [shell("git status")],
    },
    {
      what: "ToolACE: a pythonic list with two keywords",
      source: "Team-ACE/ToolACE-8B model card ([func_name1(params_name1=params_value1, …)])",
      text: '[grep_files(pattern="TODO", path="src")]',
      calls: [GREP],
    },
    {
      what: "Granite 3.x: <|tool_call|> then a JSON list",
      source: "ibm-granite/granite-3.3-8b-instruct chat template (<|tool_call|>[…])",
      text: '<|tool_call|>[{"name": "read_file", "arguments": {"path": "src/a.ts"}}]',
      calls: [READ],
    },
    {
      what: "SmolLM3: <tool_call> with JSON after thinking",
      source: "HuggingFaceTB/SmolLM3-3B chat template (xml_tools, <tool_call>)",
      text: '<think>\nI need the file.\n</think>\n<tool_call>\n{"name": "read_file", "arguments": {"path": "src/a.ts"}}\n</tool_call>',
      calls: [READ],
    },
  ],
  negatives: [
    {
      what: "a MiniCPM-4 call to a tool that is not offered",
      source: `${SG}/minicpm4_xml_detector.py (func_name not in tool_names)`,
      text: '<function name="get_weather"><param name="city">Beijing</param></function>',
    },
    {
      what: "a poolside call whose name is no tool",
      source: `${SG}/poolside_v1_detector.py (unknown name drains)`,
      text: "<tool_call>now</tool_call>",
    },
    {
      what: "an Inkling call with a header that names another tool",
      source: `${SG}/inkling_detector.py (header/payload name mismatch)`,
      text: '<|message_model|>delete_everything<|content_invoke_tool_json|>{"name":"nuke","args":{"path":"/"}}<|end_message|>',
    },
    {
      what: "a chat template's instruction echoed",
      source: "HuggingFaceTB/SmolLM3-3B chat template (xml_tools instruction)",
      text: 'For each function call, return a json object with function name and arguments within <tool_call></tool_call> XML tags:\n<tool_call>\n{"name": <function-name>, "arguments": <args-json-object>}\n</tool_call>',
    },
    {
      what: "a model card's format line with placeholders",
      source: "watt-ai/watt-tool-8B model card (format instruction)",
      text: "You should only return the function call in tools call sections.\nIf you decide to invoke any of the function(s), you MUST put it in the format of [func_name1(params_name1=params_value1, params_name2=params_value2...), func_name2(params)]",
    },
    {
      what: "a chat template's tool-call loop echoed",
      source: "Qwen/Qwen2.5-7B-Instruct chat template (message.tool_calls rendered into <tool_call>)",
      text: '{%- for tool_call in message.tool_calls %}\n<tool_call>\n{"name": "{{ tool_call.function.name }}", "arguments": {{ tool_call.function.arguments | tojson }}}\n</tool_call>\n{%- endfor %}',
    },
    {
      what: "a template's instruction with a worked example",
      source: "Qwen/Qwen2.5-7B-Instruct chat template (tools instruction), with an example in our names",
      text: 'For each function call, return a json object within <tool_call></tool_call> tags. For example:\n<tool_call>\n{"name": "read_file", "arguments": {"path": "src/a.ts"}}\n</tool_call>',
    },
    {
      what: "Mistral's call token shown inline",
      source: "mistralai/mistral-common docs (tool calls tokenized as [TOOL_CALLS]…), our names",
      text: 'The model answers with `[TOOL_CALLS][{"name": "read_file", "arguments": {"path": "src/a.ts"}}]` and the server turns it into tool_calls.',
    },
    {
      what: "a tool's result in the template's response tag",
      source: "Qwen/Qwen3-8B chat template (tool messages rendered as <tool_response>)",
      text: '<tool_response>\n{"name": "read_file", "content": "export const a = 1;"}\n</tool_response>\nThe file exports a.',
    },
    {
      what: "a Python session, whose prompt is functionary's recipient marker",
      source:
        "meetkai/functionary-small-v3.2 template (>>>recipient) beside Python's interactive prompt (docs.python.org tutorial)",
      text: ">>> read_file(\"src/a.ts\")\n'export const a = 1;\\n'\n>>> ",
    },
    {
      what: "the call shape in YAML, shown for reference",
      source: "zabirauf/AutoGPT.js AutoGPT/utils/prompt.ts (YAML_SCHEMA prompt format), our names",
      text: "```yaml\nname: read_file\narguments:\n  path: src/a.ts\n```\nThat's the YAML equivalent of the JSON call format, for reference in your config file.",
    },
    {
      what: "the 3.1 format described as a typical response",
      source: "meta-llama/llama-models#169 (the 3.1 JSON format quoted in a question; adapted)",
      text: 'A typical response from Llama 3.1 is:\n\n{"name": "read_file", "arguments": {"path": "src/a.ts"}}\n\nNote the parameters key in some versions.',
    },
  ],
};
