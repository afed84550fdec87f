import { describe, expect, it } from "vitest";
import { mayHoldCall, recoverToolCalls } from "../../src/agent/replies/text-tool-calls.js";
import { nameBook } from "../../src/agent/replies/call-names.js";

const TOOLS = ["read_file", "create_file", "run_shell", "grep", "list_files"];
const READ = { name: "read_file", args: { path: "src/a.ts" } };

// Shapes seen in Ollama users' reports, each with the call it must yield.
const SHAPES: {
  shape: string;
  text: string;
  calls: { name: string; args: Record<string, unknown> }[];
  rest?: string;
}[] = [
  {
    shape: "bare JSON object with arguments (qwen2.5-coder)",
    text: '{"name": "read_file", "arguments": {"path": "src/a.ts"}}',
    calls: [READ],
  },
  {
    shape: "bare JSON with parameters (llama3.2)",
    text: '{"type": "function", "name": "read_file", "parameters": {"path": "src/a.ts"}}',
    calls: [READ],
  },
  {
    shape: "arguments as a JSON string (OpenAI style)",
    text: '{"name": "read_file", "arguments": "{\\"path\\": \\"src/a.ts\\"}"}',
    calls: [READ],
  },
  {
    shape: "OpenAI function wrapper",
    text: '{"type": "function", "function": {"name": "read_file", "arguments": {"path": "src/a.ts"}}}',
    calls: [READ],
  },
  {
    shape: "```json fenced block after a short lead-in line",
    text: 'I will read the file.\n```json\n{"name": "read_file", "arguments": {"path": "src/a.ts"}}\n```',
    calls: [READ],
    rest: "I will read the file.",
  },
  {
    shape: "<tool_call> JSON (Qwen / Hermes), after prose",
    text: 'Let me look at it.\n\n<tool_call>\n{"name": "read_file", "arguments": {"path": "src/a.ts"}}\n</tool_call>',
    calls: [READ],
    rest: "Let me look at it.",
  },
  {
    shape: "<tool_call> without its closing tag",
    text: '<tool_call>\n{"name": "read_file", "arguments": {"path": "src/a.ts"}}',
    calls: [READ],
    rest: "",
  },
  {
    shape: "<tool_call>name then JSON arguments",
    text: '<tool_call>read_file\n{"path": "src/a.ts"}\n</tool_call>',
    calls: [READ],
  },
  {
    shape: "qwen3-coder XML with parameters",
    text: "<tool_call>\n<function=create_file>\n<parameter=path>\nsrc/b.ts\n</parameter>\n<parameter=content>\nexport const b = 1;\n</parameter>\n</function>\n</tool_call>",
    calls: [{ name: "create_file", args: { path: "src/b.ts", content: "export const b = 1;" } }],
    rest: "",
  },
  {
    shape: "<function=name>{JSON}</function> (Llama 3.1 custom format)",
    text: '<function=read_file>{"path": "src/a.ts"}</function>',
    calls: [READ],
  },
  {
    shape: "<|python_tag|> (Llama 3.1)",
    text: '<|python_tag|>{"name": "read_file", "parameters": {"path": "src/a.ts"}}<|eom_id|>',
    calls: [READ],
    rest: "",
  },
  {
    shape: "[TOOL_CALLS] array (Mistral)",
    text: '[TOOL_CALLS] [{"name": "read_file", "arguments": {"path": "src/a.ts"}}, {"name": "grep", "arguments": {"pattern": "TODO"}}]',
    calls: [READ, { name: "grep", args: { pattern: "TODO" } }],
  },
  {
    shape: "[TOOL_CALLS]name[ARGS] (newer Mistral)",
    text: '[TOOL_CALLS]read_file[ARGS]{"path": "src/a.ts"}',
    calls: [READ],
  },
  {
    shape: "functools[...] (firefunction)",
    text: 'functools[{"name": "read_file", "arguments": {"path": "src/a.ts"}}]',
    calls: [READ],
  },
  {
    shape: "DeepSeek V3 tokens with a fenced argument block",
    text: '<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>read_file\n```json\n{"path": "src/a.ts"}\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜>',
    calls: [READ],
    rest: "",
  },
  {
    shape: "DeepSeek V3.1 tokens",
    text: '<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>read_file<｜tool▁sep｜>{"path": "src/a.ts"}<｜tool▁call▁end｜><｜tool▁calls▁end｜>',
    calls: [READ],
  },
  {
    shape: "gpt-oss harmony tokens",
    text: '<|channel|>commentary to=functions.read_file <|constrain|>json<|message|>{"path":"src/a.ts"}<|call|>',
    calls: [READ],
    rest: "",
  },
  {
    shape: "JSON array of calls",
    text: '[{"name": "read_file", "arguments": {"path": "src/a.ts"}}, {"name": "list_files", "arguments": {}}]',
    calls: [READ, { name: "list_files", args: {} }],
  },
  {
    shape: "two objects one per line",
    text: '{"name": "read_file", "arguments": {"path": "src/a.ts"}}\n{"name": "grep", "arguments": {"pattern": "x"}}',
    calls: [READ, { name: "grep", args: { pattern: "x" } }],
  },
  {
    shape: "Agent Zero tool_name / tool_args",
    text: '{"thoughts": ["need the file"], "tool_name": "read_file", "tool_args": {"path": "src/a.ts"}}',
    calls: [READ],
  },
  {
    shape: "tool / tool_input",
    text: '{"tool": "run_shell", "tool_input": {"command": "ls -la"}}',
    calls: [{ name: "run_shell", args: { command: "ls -la" } }],
  },
  {
    shape: "single quotes, trailing comma, Python True",
    text: "{'name': 'grep', 'arguments': {'pattern': 'x', 'ignore_case': True,},}",
    calls: [{ name: "grep", args: { pattern: "x", ignore_case: true } }],
  },
  {
    shape: "```tool_code fence (Gemma)",
    text: '```tool_code\nprint(default_api.read_file(path="src/a.ts"))\n```',
    calls: [READ],
    rest: "",
  },
  {
    shape: "pythonic list (Llama 3.2)",
    text: '[read_file(path="src/a.ts"), grep(pattern="x")]',
    calls: [READ, { name: "grep", args: { pattern: "x" } }],
  },
  {
    shape: "<tool_call> wrapped in a ```xml fence as the whole reply",
    text: '```xml\n<tool_call>\n{"name": "read_file", "arguments": {"path": "src/a.ts"}}\n</tool_call>\n```',
    calls: [READ],
  },
  {
    shape: "raw newline inside a JSON string (file content)",
    text: '<tool_call>\n{"name": "create_file", "arguments": {"path": "a.py", "content": "print(1)\nprint(2)"}}\n</tool_call>',
    calls: [{ name: "create_file", args: { path: "a.py", content: "print(1)\nprint(2)" } }],
  },
];

describe("recoverToolCalls: shapes seen in the wild", () => {
  it.each(SHAPES)("$shape", ({ text, calls, rest }) => {
    const got = recoverToolCalls(text, TOOLS);
    expect(got.calls).toEqual(calls);
    expect(got.unknown).toEqual([]);
    if (rest !== undefined) expect(got.rest).toBe(rest);
  });
});

// Texts that hold JSON or call-like syntax but are not calls.
const NOT_CALLS: { why: string; text: string }[] = [
  {
    why: "prose plus a ```json block showing a config object",
    text: 'To enable strict mode, set this in tsconfig.json:\n\n```json\n{"compilerOptions": {"strict": true}}\n```\n\nThen run the build again.',
  },
  {
    why: "a JSON object with a name key that is not a tool (package.json)",
    text: '{"name": "my-app", "version": "1.0.0", "scripts": {"test": "vitest"}}',
  },
  {
    why: "a call embedded mid-paragraph in an explanation",
    text: 'For example you could call {"name": "read_file", "arguments": {"path": "a.txt"}} and then inspect the output before editing.',
  },
  {
    why: "a call example inside a longer explanation with a fence",
    text: 'The agent protocol works like this.\nEach tool call is an object with a name and arguments.\nHere is one:\n```json\n{"name": "read_file", "arguments": {"path": "a.txt"}}\n```\nThe runtime executes it and returns the result.\nThen the model continues.',
  },
  {
    why: "call markup quoted in inline code",
    text: 'Qwen models emit `<tool_call>{"name": "read_file", "arguments": {"path": "a"}}</tool_call>` when the template is missing.',
  },
  {
    why: "plain prose",
    text: "The function reads the file and returns its lines.",
  },
  {
    why: "a JSON array of data",
    text: '[{"id": 1, "title": "first"}, {"id": 2, "title": "second"}]',
  },
  {
    why: "a Python code block calling a function",
    text: 'Here\'s how to use it:\n```python\nresult = read_file(path="a.txt")\nprint(result)\n```',
  },
];

describe("recoverToolCalls: texts that are not tool calls", () => {
  it.each(NOT_CALLS)("$why", ({ text }) => {
    const got = recoverToolCalls(text, TOOLS);
    expect(got.calls).toEqual([]);
    expect(got.rest).toBe(text);
  });
});

describe("recoverToolCalls: names", () => {
  it("reports a call-shaped reply naming an unknown tool instead of running it", () => {
    const got = recoverToolCalls('{"name": "search_web", "arguments": {"q": "x"}}', TOOLS);
    expect(got).toEqual({
      calls: [],
      rest: '{"name": "search_web", "arguments": {"q": "x"}}',
      unknown: ["search_web"],
      malformed: false,
    });
  });

  it("keeps known calls from markup and reports the unknown ones beside them", () => {
    const text =
      '<tool_call>{"name": "read_file", "arguments": {"path": "src/a.ts"}}</tool_call>\n<tool_call>{"name": "browse", "arguments": {}}</tool_call>';
    const got = recoverToolCalls(text, TOOLS);
    expect(got.calls).toEqual([READ]);
    expect(got.unknown).toEqual(["browse"]);
  });

  it("drops the functions. prefix gpt-oss writes", () => {
    const got = recoverToolCalls('{"name": "functions.read_file", "arguments": {"path": "src/a.ts"}}', TOOLS);
    expect(got.calls).toEqual([READ]);
  });

  it("flags call markup whose JSON cannot be read", () => {
    const text = '<tool_call>\n{"name": "read_file", "arguments": {"path": \n</tool_call>';
    expect(recoverToolCalls(text, TOOLS)).toMatchObject({ calls: [], rest: text, unknown: [], malformed: true });
  });
});

describe("recoverToolCalls: the rest of the text", () => {
  it("keeps a <think> block out of the search and in the rest", () => {
    const text =
      '<think>\nI should read {"name": "grep"} maybe.\n</think>\n{"name": "read_file", "arguments": {"path": "src/a.ts"}}';
    const got = recoverToolCalls(text, TOOLS);
    expect(got.calls).toEqual([READ]);
    expect(got.rest).toBe('<think>\nI should read {"name": "grep"} maybe.\n</think>');
  });

  it("keeps the prose around markup and drops only the markup", () => {
    const text =
      'First I check the file.\n<tool_call>{"name": "read_file", "arguments": {"path": "src/a.ts"}}</tool_call>\nThen I fix it.';
    expect(recoverToolCalls(text, TOOLS).rest).toBe("First I check the file.\n\nThen I fix it.");
  });

  it("allows one short line after a bare call", () => {
    const got = recoverToolCalls('{"name": "read_file", "arguments": {"path": "src/a.ts"}}\nReading it now.', TOOLS);
    expect(got.calls).toEqual([READ]);
    expect(got.rest).toBe("Reading it now.");
  });
});

describe("mayHoldCall: what the readers need not search", () => {
  const book = nameBook(["read_file", "run_shell_command", "apply_patch", "mcp__docs__search"]);

  it("skips plain prose that names no tool and holds no markup", () => {
    for (const text of ["ok", "Done. The answer is 42.", "It reads the file, then runs the tests: all pass."])
      expect(mayHoldCall(text, book), text).toBe(false);
  });

  it("searches a tool's name in any case or namespace, any markup, and a patch", () => {
    for (const text of [
      "READ_FILE path=src/a.ts",
      "functions.read_file:0",
      "Action: Run_Shell_Command",
      "call mcp__docs__search now",
      '{"name": "nope"}',
      "<tool>",
      "[TOOL_CALLS]",
      "*** Begin Patch\n*** End Patch",
    ])
      expect(mayHoldCall(text, book), text).toBe(true);
  });
});
