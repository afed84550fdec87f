// Two shapes from the trackers (issue 38 §2): a call written at the end of the thinking with the
// answer left empty, and code that calls a function named like a tool. Each case cites its source.
import { describe, expect, it } from "vitest";
import { recoverToolCalls } from "../../src/agent/replies/text-tool-calls.js";
import { callEndingThinking } from "../../src/agent/replies/thinking-call.js";
import { toolSpecs } from "../../src/tools/runner.js";
import { readFileTool } from "../../src/tools/files/read.js";
import { grepFilesTool } from "../../src/tools/files/search.js";
import { listFilesTool } from "../../src/tools/files/list.js";

const SPECS = toolSpecs([readFileTool, grepFilesTool, listFilesTool]);

describe("a call inside the thinking", () => {
  it.each([
    {
      source: "ollama/ollama#10976 (qwen3, think + tools: the call is reasoned out, the answer empty)",
      thinking:
        'The user wants the contents of a.txt. I should read it.\n\n{"name": "read_file", "arguments": {"path": "a.txt"}}',
      name: "read_file",
    },
    {
      source: "CambrianTech/continuum#2136 (DeepSeek commits its act inside reasoning_content)",
      thinking:
        "Let me search for TODO markers first.\nI will call grep_files.\n<tool_call>\n" +
        '{"name": "grep_files", "arguments": {"pattern": "TODO", "path": "src"}}\n</tool_call>',
      name: "grep_files",
    },
    {
      source: "qwen2.5/3 hermes template: <tool_call> tag written in the reasoning (QwenLM/Qwen3#1297 shape)",
      thinking: 'Okay, list the folder.\n<tool_call>{"name": "list_files", "arguments": {"path": "."}}</tool_call>\n',
      name: "list_files",
    },
  ])("ends with a call: $source", ({ thinking, name }) => {
    expect(callEndingThinking(thinking, SPECS).map((c) => c.name)).toEqual([name]);
  });

  it.each([
    {
      why: "a call mentioned, then more thought (ollama/ollama#10976 discussion: the model plans, then answers)",
      thinking:
        '{"name": "read_file", "arguments": {"path": "a.txt"}} would read it, but the user pasted the file already, so I can answer directly.',
    },
    {
      why: "a call in the middle, the thinking goes on",
      thinking:
        'Option one:\n{"name": "read_file", "arguments": {"path": "a.txt"}}\nNo: I already know the answer. It is 42.',
    },
    {
      why: "arguments that fail the tool's schema (path missing)",
      thinking: 'Read it.\n{"name": "read_file", "arguments": {}}',
    },
    {
      why: "a name that is no tool of this run",
      thinking: 'Run it.\n{"name": "run_shell", "arguments": {"command": "ls"}}',
    },
  ])("is not a call: $why", ({ thinking }) => {
    expect(callEndingThinking(thinking, SPECS)).toEqual([]);
  });
});

describe("code is code", () => {
  it.each([
    {
      source: "vLLM docs/features/tool_calling.md quickstart, our names: a helper printed",
      text: '```python\nprint(read_file("src/a.ts"))\n```',
    },
    {
      source: "the same, with prose around it",
      text: 'You can check it yourself:\n\n```python\nprint(read_file("src/a.ts"))\n```\n\nIt prints the file.',
    },
    {
      source: "LangChain docs (tool.invoke inside an expression), our names",
      text: '```python\nresult = grep_files(pattern="TODO", path=".")\nfor r in result:\n    print(r)\n```',
    },
    {
      source: "Node fs usage shown in a JS answer (nodejs.org docs/api/fs readFile), our names",
      text: '```js\nconst text = await read_file("a.txt");\nconsole.log(text);\n```',
    },
    {
      source: "a JS log of a helper's result",
      text: '```javascript\nconsole.log(list_files("."));\n```',
    },
    {
      source: "a shell function named like a tool (bash manual, command substitution)",
      text: '```bash\necho "$(read_file a.txt)"\n```',
    },
    {
      source: "Python wrapping the call in len() (Python docs, built-ins)",
      text: '```py\nprint(len(read_file("a.txt")))\n```',
    },
    {
      source: "TypeScript returning the call (MCP typescript-sdk README pattern, our names)",
      text: "```ts\nreturn read_file({ path: 'a.txt' });\n```",
    },
  ])("a fenced block calling a tool-named function is not run: $source", ({ text }) => {
    expect(recoverToolCalls(text, SPECS).calls).toEqual([]);
  });

  it.each([
    {
      source: "Gemma tool_code fence (ai.google.dev gemma function calling)",
      text: '```tool_code\nprint(default_api.read_file(path="src/a.ts"))\n```',
    },
    { source: "Llama 3.2 pythonic call in a python fence", text: '```python\nread_file(path="src/a.ts")\n```' },
    {
      source: "Gemma's call printed through default_api, in a python fence (ai.google.dev function calling)",
      text: '```python\nprint(default_api.read_file(path="src/a.ts"))\n```',
    },
  ])("a call marker or a bare statement call is still read: $source", ({ text }) => {
    expect(recoverToolCalls(text, SPECS).calls.map((c) => c.name)).toEqual(["read_file"]);
  });
});
