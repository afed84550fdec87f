// Set (d): agents' own test suites for calls written as text (nanocoder, llxprt-code,
// agentic-rag, personal-agent parsers, …), the calls renamed onto our tools.
import { GREP, LIST, READ, READ_B, read, shell, type HeldOutSet } from "./shared.js";

const NANO = "Nano-Collective/nanocoder source/tool-calling";
const RAG = "ralph17pickering-stack/agentic-rag app/backend/tests/unit/services/test_parse_text_tool_calls.py";
const WRITE = { name: "write_file", args: { path: "notes.txt", content: "Hello" } };

export const AGENTS: HeldOutSet = {
  name: "agents' test suites",
  cases: [
    {
      what: "nanocoder: a pretty-printed JSON call",
      source: `${NANO}/json-parser.spec.ts (parses single JSON tool call)`,
      text: '\n{\n  "name": "read_file",\n  "arguments": {\n    "path": "src/a.ts"\n  }\n}\n  ',
      calls: [READ],
    },
    {
      what: "nanocoder: the JSON call in a json fence",
      source: `${NANO}/json-parser.spec.ts (JSON in markdown code block)`,
      text: '\n```json\n{\n  "name": "read_file",\n  "arguments": {\n    "path": "src/a.ts"\n  }\n}\n```\n  ',
      calls: [READ],
    },
    {
      what: "nanocoder: two JSON calls separated by a blank line",
      source: `${NANO}/json-parser.spec.ts (parses multiple tool calls)`,
      text: '\n{\n  "name": "read_file",\n  "arguments": {\n    "path": "src/a.ts"\n  }\n}\n\n{\n  "name": "write_file",\n  "arguments": {\n    "path": "notes.txt",\n    "content": "Hello"\n  }\n}\n  ',
      calls: [READ, WRITE],
    },
    {
      what: "nanocoder: an inline JSON call inside a sentence",
      source: `${NANO}/json-parser.spec.ts (parses inline JSON tool calls)`,
      text: 'Here is a tool call: {"name": "read_file", "arguments": {"path": "src/a.ts"}} and some more text',
      calls: [READ],
    },
    {
      what: "nanocoder: two calls, each after a short lead-in",
      source: `${NANO}/json-parser.spec.ts (full workflow)`,
      text: '\nI want to read this file:\n\n{\n  "name": "read_file",\n  "arguments": {\n    "path": "src/a.ts"\n  }\n}\n\nAnd then create a backup:\n\n{\n  "name": "write_file",\n  "arguments": {\n    "path": "notes.txt",\n    "content": "Hello"\n  }\n}\n\nThat\'s all!\n  ',
      calls: [READ, WRITE],
    },
    {
      what: "nanocoder: tool-named XML with child tags",
      source: `${NANO}/xml-parser.spec.ts (parses simple tool call)`,
      text: "<read_file><path>src/a.ts</path></read_file>",
      calls: [READ],
    },
    {
      what: "nanocoder: two tool-named XML calls",
      source: `${NANO}/xml-parser.spec.ts (parses multiple tool calls)`,
      text: "<read_file><path>src/a.ts</path></read_file>\n<read_file><path>src/b.ts</path></read_file>",
      calls: [READ, READ_B],
    },
    {
      what: "nanocoder: a tool-named XML call with no parameters",
      source: `${NANO}/xml-parser.spec.ts (handles empty parameters)`,
      text: "<list_files></list_files>",
      calls: [LIST],
    },
    {
      what: "nanocoder: tool-named XML in an xml fence",
      source: `${NANO}/xml-parser.spec.ts (markdown code blocks)`,
      text: "```xml\n<read_file><path>src/a.ts</path></read_file>\n```",
      calls: [READ],
    },
    {
      what: "nanocoder: tool-named XML inside <tool_call>",
      source: `${NANO}/xml-parser.spec.ts (removes tool_call wrapper tags)`,
      text: "<tool_call><read_file><path>src/a.ts</path></read_file></tool_call>",
      calls: [READ],
    },
    {
      what: "nanocoder: multi-line content in XML",
      source: `${NANO}/xml-parser.spec.ts (handles multiline content)`,
      text: "<write_file>\n\t\t<path>notes.txt</path>\n\t\t<content>Line 1\nLine 2\nLine 3</content>\n\t</write_file>",
      calls: [{ name: "write_file", args: { path: "notes.txt", content: "Line 1\nLine 2\nLine 3" } }],
    },
    {
      what: "nanocoder: a shell command with quotes and a pipe",
      source: `${NANO}/xml-parser.spec.ts (special characters in content)`,
      text: '<run_shell_command><command>echo "Hello & goodbye" | grep -v "test"</command></run_shell_command>',
      calls: [shell('echo "Hello & goodbye" | grep -v "test"')],
    },
    {
      what: "nanocoder: Llama 3.x <function=name>{json}</function>",
      source: `${NANO}/xml-parser.spec.ts (<function=name> parsed as Llama 3.x)`,
      text: '<function=read_file>{"path": "src/a.ts"}</function>',
      calls: [READ],
    },
    {
      what: "agentic-rag: <function=…> with inline parameters",
      source: `${RAG} (format 1)`,
      text: "<function=grep_files>\n<parameter=pattern>TODO</parameter>\n<parameter=path>src</parameter>\n</function>",
      calls: [GREP],
    },
    {
      what: "agentic-rag: two <tool_call> JSON calls",
      source: `${RAG} (format 2, multiple)`,
      text: '<tool_call>\n{"name": "read_file", "arguments": {"path": "src/a.ts"}}\n</tool_call>\n<tool_call>\n{"name": "grep_files", "arguments": {"pattern": "TODO", "path": "src"}}\n</tool_call>',
      calls: [READ, GREP],
    },
    {
      what: "agentic-rag: a JSON list in an upper-case JSON fence",
      source: `${RAG} (format 3, \`\`\`JSON)`,
      text: '```JSON\n[{"name": "web_search", "arguments": {"query": "hello"}}]\n```',
      calls: [{ name: "web_search", args: { query: "hello" } }],
    },
    {
      what: "agentic-rag: parameters instead of arguments",
      source: `${RAG} (parameters key fallback)`,
      text: '<tool_call>\n{"name": "web_search", "parameters": {"query": "test"}}\n</tool_call>',
      calls: [{ name: "web_search", args: { query: "test" } }],
    },
    {
      what: "llxprt-code: gemma-3 [TOOL_REQUEST] with name then JSON",
      source:
        "vybestack/llxprt-code project-plans/multi-provider/08e-verify-text-tool-parsing.md (GemmaToolCallParser test)",
      text: 'Here is the result:\n[TOOL_REQUEST]\nlist_files {"path": "/home"}\n[TOOL_REQUEST_END]',
      calls: [{ name: "list_files", args: { path: "/home" } }],
    },
    {
      what: "personal-agent: [TOOL_REQUEST]{json}[END_TOOL_REQUEST]",
      source: "personal_agent llm_client tests (test_parse_tool_request_end_tool_request, code corpus)",
      text: '[TOOL_REQUEST]{"name":"list_files","arguments":{"path":"/tmp"}}[END_TOOL_REQUEST]',
      calls: [{ name: "list_files", args: { path: "/tmp" } }],
    },
    {
      what: "personal-agent: [TOOL_REQUEST] closed by a typo'd END_TOOL_RESULT",
      source: "personal_agent llm_client tests (test_parse_tool_request_end_tool_result_is_accepted)",
      text: '[TOOL_REQUEST]{"name":"list_files","arguments":{"path":"/tmp"}}[END_TOOL_RESULT]',
      calls: [{ name: "list_files", args: { path: "/tmp" } }],
    },
    {
      what: "textToolParser: a sentence then an inline JSON call",
      source: "vitest textToolParser tests in the code corpus (Strategy 1: 'I will create a file: {…}')",
      text: 'I will create a file: {"name": "write_file", "arguments": {"path": "notes.txt", "content": "Hello"}}',
      calls: [WRITE],
    },
    {
      what: "Qwen2.5-Coder vLLM parser: a call with an offset",
      source: "hanXen/vllm-qwen2.5-coder-tool-parser tests/test_parser_unit.py",
      text: '<tool_call>\n{"name": "read_file", "arguments": {"path": "src/a.ts", "offset": 10}}\n</tool_call>',
      calls: [read("src/a.ts", { offset: 10 })],
    },
  ],
  negatives: [
    {
      what: "a JSON list of named objects that are no calls",
      source: `${RAG} (no false positive on named objects)`,
      text: '[{"name": "Alice", "age": 30}, {"name": "Bob", "age": 25}]',
    },
    {
      what: "a JSON call without arguments of any kind for a tool that needs them",
      source: `${NANO}/json-parser.spec.ts (detects missing arguments field)`,
      text: '\n{\n  "name": "read_file"\n}\n  ',
    },
    {
      what: "arguments with no name",
      source: `${NANO}/json-parser.spec.ts (detects missing name field)`,
      text: '\n{\n  "arguments": {\n    "path": "src/a.ts"\n  }\n}\n  ',
    },
    {
      what: "a JSON call cut off mid-object",
      source: `${NANO}/json-parser.spec.ts (handles malformed JSON gracefully)`,
      text: '\n{\n  "name": "read_file",\n  "arguments": {\n    "path": "src/a.ts"\n    // missing closing braces\n  ',
    },
    {
      what: "an unclosed tool-named XML call",
      source: `${NANO}/xml-parser.spec.ts (handles unclosed tags gracefully)`,
      text: "<read_file><path>src/a.ts</path>",
    },
    {
      what: "[Tool: name] with no arguments, in a sentence",
      source: `${NANO}/xml-parser.spec.ts (detects [Tool: name] in context)`,
      text: "Let me read the file for you.\n\n[Tool: read_file]\nThe file contains...",
    },
    {
      what: "a JSON fence holding data, not a call",
      source: `${NANO}/json-parser.spec.ts (keeps code blocks without tool calls)`,
      text: 'Some text before.\n\n```json\n{\n  "someOtherData": "value"\n}\n```\n\nSome text after.',
    },
    {
      what: "a JS fence that calls a same-named function",
      source: `${NANO}/xml-parser.spec.ts (keeps code blocks without tool calls), our names`,
      text: "Some text\n```javascript\nconst text = await read_file({ path: 'src/a.ts' });\nconsole.log(text);\n```\nMore text",
    },
    {
      what: "a shell fence running a same-named script",
      source: "tunacode tests (has_potential_tool_call on code fences), our names",
      text: 'Run this:\n\n```bash\n./scripts/read_file src/a.ts\ngrep_files() { rg "$1" "$2"; }\ngrep_files TODO src\n```',
    },
    {
      what: "a test's input quoted as a string in a sentence",
      source: `${RAG} (test_format2_tool_call_json, described in prose)`,
      text: 'The test sets content to \'<tool_call>{"name": "read_file", "arguments": {"path": "src/a.ts"}}</tool_call>\' and expects the parser to return one call named read_file.',
    },
    {
      what: "a ReAct transcript that invents the observation and answers",
      source:
        "langchain-ai/langchain agents/output_parsers/react_single_input.py (FINAL_ANSWER_AND_PARSABLE_ACTION_ERROR_MESSAGE)",
      text: "Action: read_file\nAction Input: src/a.ts\nObservation: export const a = 1;\nThought: I now know the final answer\nFinal Answer: the file exports a = 1.",
    },
    {
      what: "a parser test quoted in a TypeScript fence",
      source: `${NANO}/xml-parser.spec.ts (parses simple tool call), quoted`,
      text: "```ts\nconst content = '<read_file><path>/test/file.txt</path></read_file>';\nconst result = XMLToolCallParser.parseToolCalls(content);\n```",
    },
    {
      what: "a parser test quoted in a Python fence",
      source: `${RAG} (test_format2_tool_call_json), quoted`,
      text: '```python\ncontent = \'<tool_call>\\n{"name": "read_file", "arguments": {"path": "src/a.ts"}}\\n</tool_call>\'\nresult = parse(content)\nassert result[0][\'name\'] == \'read_file\'\n```',
    },
    {
      what: "a test case's input and expected output",
      source: `${RAG} (input/expected pairs, described; adapted)`,
      text: 'Input:\n{"name": "read_file", "arguments": {"path": "src/a.ts"}}\nOutput: a ToolCall with name read_file.',
    },
    {
      what: "a parser's behaviour described around an inline call",
      source: `${NANO}/json-parser.spec.ts (parseJSONToolCalls, described; adapted)`,
      text: 'Given {"name": "read_file", "arguments": {"path": "src/a.ts"}}, the function returns [ToolCall(name=\'read_file\')].',
    },
  ],
};
