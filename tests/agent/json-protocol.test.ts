import { describe, expect, it } from "vitest";
import {
  correctiveMessage,
  jsonProtocolPrompt,
  parseJsonProtocolReply,
} from "../../src/agent/replies/json-protocol.js";
import { extractJsonObject, parseLenientJson } from "../../src/providers/lenient-json.js";

const TOOLS = ["read_file", "create_file"];

describe("parseJsonProtocolReply", () => {
  const READ = { kind: "tool", thoughts: ["I need the file"], name: "read_file", args: { path: "a.txt" } };

  it.each([
    ["a plain object", '{"thoughts": ["I need the file"], "tool_name": "read_file", "tool_args": {"path": "a.txt"}}'],
    [
      "a ```json fence",
      '```json\n{"thoughts": ["I need the file"], "tool_name": "read_file", "tool_args": {"path": "a.txt"}}\n```',
    ],
    [
      "text around the object",
      'Sure!\n{"thoughts": ["I need the file"], "tool_name": "read_file", "tool_args": {"path": "a.txt"}}\nHope that helps.',
    ],
    [
      "trailing commas",
      '{"thoughts": ["I need the file",], "tool_name": "read_file", "tool_args": {"path": "a.txt",},}',
    ],
    ["single quotes", "{'thoughts': ['I need the file'], 'tool_name': 'read_file', 'tool_args': {'path': 'a.txt'}}"],
    ["unquoted keys", '{thoughts: ["I need the file"], tool_name: "read_file", tool_args: {path: "a.txt"}}'],
    [
      "a <think> block first",
      '<think>{"x": 1}</think>{"thoughts": ["I need the file"], "tool_name": "read_file", "tool_args": {"path": "a.txt"}}',
    ],
    [
      "tool_args as a JSON string",
      '{"thoughts": ["I need the file"], "tool_name": "read_file", "tool_args": "{\\"path\\": \\"a.txt\\"}"}',
    ],
    [
      "a thought as a plain string",
      '{"thoughts": "I need the file", "tool_name": "read_file", "tool_args": {"path": "a.txt"}}',
    ],
  ])("reads a tool call from %s", (_, text) => {
    expect(parseJsonProtocolReply(text, TOOLS)).toEqual(READ);
  });

  it("keeps multi-line file content written with raw newlines", () => {
    const text =
      '{"thoughts": [], "tool_name": "create_file", "tool_args": {"path": "a.py", "content": "def f():\n    return 1\n"}}';
    expect(parseJsonProtocolReply(text, TOOLS)).toEqual({
      kind: "tool",
      thoughts: [],
      name: "create_file",
      args: { path: "a.py", content: "def f():\n    return 1\n" },
    });
  });

  it("reads the response tool as the answer to the user", () => {
    const text = '{"thoughts": ["done"], "tool_name": "response", "tool_args": {"text": "The file says **hi**."}}';
    expect(parseJsonProtocolReply(text, TOOLS)).toEqual({
      kind: "response",
      thoughts: ["done"],
      text: "The file says **hi**.",
    });
  });

  it("defaults missing tool_args to no arguments", () => {
    expect(parseJsonProtocolReply('{"thoughts": [], "tool_name": "read_file"}', TOOLS)).toEqual({
      kind: "tool",
      thoughts: [],
      name: "read_file",
      args: {},
    });
  });

  it.each([
    ["", "the reply was empty"],
    ["I think the answer is 42.", "the reply held no JSON object"],
    ['{"thoughts": ["hm"]}', 'the JSON object had no "tool_name"'],
    [
      '{"tool_name": "delete_all", "tool_args": {}}',
      'unknown tool "delete_all"; the tools are: read_file, create_file, response',
    ],
    ['{"tool_name": "response", "tool_args": {}}', '"response" needs "tool_args": {"text": "..."}'],
    ['{"tool_name": "read_file", "tool_args": [1, 2]}', '"tool_args" must be a JSON object'],
  ])("rejects %j with the error the model is shown", (text, error) => {
    expect(parseJsonProtocolReply(text, TOOLS)).toEqual({ kind: "invalid", error });
  });
});

describe("jsonProtocolPrompt", () => {
  const prompt = jsonProtocolPrompt([
    {
      name: "read_file",
      description: "Read a text file.",
      parameters: {
        type: "object",
        properties: { path: { type: "string", description: "relative path" }, offset: { type: "integer" } },
        required: ["path"],
      },
    },
  ]);

  it("states the reply format and the response tool", () => {
    expect(prompt).toContain(
      '{"thoughts": ["short reasoning", "..."], "tool_name": "<tool name>", "tool_args": {<arguments>}}',
    );
    expect(prompt).toContain(
      '{"thoughts": ["..."], "tool_name": "response", "tool_args": {"text": "your answer, in markdown"}}',
    );
  });

  it("lists each tool with its parameters", () => {
    expect(prompt).toContain(
      "## read_file\nRead a text file.\nArguments:\n- path (string, required): relative path\n- offset (integer, optional)\n",
    );
  });

  it("gives an example that the parser itself accepts", () => {
    const example = prompt.split("\n").find((l) => l.startsWith('{"thoughts":["I need to use read_file."]'));
    expect(example).toBeDefined();
    expect(parseJsonProtocolReply(example!, ["read_file"])).toEqual({
      kind: "tool",
      thoughts: ["I need to use read_file."],
      name: "read_file",
      args: { path: "...", offset: "..." },
    });
  });
});

describe("correctiveMessage", () => {
  it("shows the JSON protocol format", () => {
    expect(correctiveMessage("json", TOOLS, "the reply held no JSON object")).toBe(
      [
        "Your last reply could not be used: the reply held no JSON object.",
        "Reply with exactly one JSON object and nothing else, in this format:",
        '{"thoughts": ["..."], "tool_name": "read_file", "tool_args": {"<argument>": "<value>"}}',
        'To answer the user: {"thoughts": ["..."], "tool_name": "response", "tool_args": {"text": "your answer"}}',
        "Tools: read_file, create_file, response.",
      ].join("\n"),
    );
  });

  it("tells a tool-calling model to use the tool-calling interface", () => {
    const msg = correctiveMessage("native", TOOLS, 'unknown tool "browse"');
    expect(msg.split("\n")[0]).toBe('Your last reply could not be used: unknown tool "browse".');
    expect(msg).toContain("Do not write the call into your text.");
    expect(msg).toContain("Tools: read_file, create_file.");
  });
});

describe("lenient JSON", () => {
  it.each([
    ["Python literals", "{'a': True, 'b': None, 'c': False}", { a: true, b: null, c: false }],
    ["comments", '{"a": 1, // one\n "b": /* two */ 2}', { a: 1, b: 2 }],
    ["an escaped single quote", "{'q': 'it\\'s'}", { q: "it's" }],
    ["a double quote inside single quotes", "{'q': 'say \"hi\"'}", { q: 'say "hi"' }],
    ["True inside a string stays text", '{"q": "True or False"}', { q: "True or False" }],
  ])("parses %s", (_, text, value) => {
    expect(parseLenientJson(text)).toEqual({ ok: true, value });
  });

  it("reports what it cannot parse", () => {
    expect(parseLenientJson('{"a": }').ok).toBe(false);
  });

  it("skips braces in prose that are not JSON", () => {
    expect(extractJsonObject('Use {braces} like this: {"a": "}"}')?.value).toEqual({ a: "}" });
  });
});
