import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { MARKERS, ToolCallStreamGuard } from "../../src/agent/replies/tool-call-stream.js";

/** Streams `text` cut at `cuts`; returns what was shown before the end, and what release gave. */
function stream(text: string, cuts: number[], tools: string[] = []): { shown: string; released: string } {
  const guard = new ToolCallStreamGuard(tools);
  let shown = "";
  let at = 0;
  for (const cut of [...new Set(cuts)].sort((a, b) => a - b).concat(text.length)) {
    if (cut <= at || cut > text.length) continue;
    shown += guard.push(text.slice(at, cut));
    at = cut;
  }
  return { shown, released: guard.release() };
}

describe("ToolCallStreamGuard", () => {
  it("shows prose as it comes", () => {
    const text = "The parser reads flags.\nA flag given twice keeps the last value.\n";
    expect(stream(text, [5, 17, 30])).toEqual({ shown: text, released: "" });
  });

  it("holds back every marker from its first character, wherever the deltas cut it", () => {
    for (const marker of MARKERS) {
      const text = `Let me look.\n\nsome words ${marker}{"name": "read_file"}`;
      const start = text.indexOf(marker);
      for (let cut = start; cut <= start + marker.length; cut++) {
        const r = stream(text, [start - 3, cut]);
        expect(r.shown, `${marker} cut at ${cut - start}`).toBe(text.slice(0, start));
        expect(r.shown + r.released).toBe(text);
      }
    }
  });

  it("holds a bare JSON call in the first two lines, not later", () => {
    const call = '{"name": "read_file", "arguments": {"path": "a.txt"}}';
    expect(stream(call, [1, 9])).toEqual({ shown: "", released: call });
    expect(stream(`Reading it.\n${call}`, [4, 15])).toEqual({ shown: "Reading it.\n", released: call });
    const late = `One.\nTwo.\nThree ${call}`;
    expect(stream(late, [3, 12, 20]).shown).toBe(late);
  });

  it("holds a Cline-style tag named after one of the run's tools, wherever the deltas cut it", () => {
    const text = "I will read it.\n<read_file>\n<path>src/a.ts</path>\n</read_file>";
    const start = text.indexOf("<read_file>");
    for (let cut = start; cut <= start + "<read_file>".length; cut++) {
      expect(stream(text, [3, cut], ["read_file", "edit_file"])).toEqual({
        shown: text.slice(0, start),
        released: text.slice(start),
      });
    }
    // Tags that name no tool of the run are prose (HTML, XML examples).
    const html = "Wrap it in <section> and <read_file> is not ours here.";
    expect(stream(html, [12, 20], ["edit_file"]).shown).toBe(html);
  });

  it("holds Functionary's >>>name at a line's start, not a quoted line", () => {
    const call = '>>>read_file\n{"path": "a.txt"}';
    expect(stream(call, [1, 2, 5])).toEqual({ shown: "", released: call });
    const later = `Let me check.\nStill checking.\nThen:\n${call}`;
    expect(stream(later, [10, 40, 42]).shown).toBe(later.slice(0, later.indexOf("\n>>>") + 1));
    const quote = "> a quoted line\n>> nested\nand prose >>> arrows.\n";
    expect(stream(quote, [1, 2, 20]).shown).toBe(quote);
  });

  it("holds a label line naming a tool from the line's start, wherever the deltas cut it after the colon", () => {
    // ReAct (Action:), Qwen-Agent (✿FUNCTION✿:, qwen_fncall_prompt.py), NexusRaven (Call:).
    const tools = ["read_file", "grep_files"];
    for (const call of [
      'Action: read_file\nAction Input: {"path": "a.txt"}',
      '✿FUNCTION✿: read_file\n✿ARGS✿: {"path": "a.txt"}',
      "Call: read_file(path='a.txt')",
    ]) {
      const text = `I will look at the file now, then say what it does.\n${call}`;
      const start = text.indexOf(call);
      const colon = text.indexOf(":", start) + 1;
      for (let cut = colon; cut <= start + call.indexOf("read_file") + "read_file".length; cut++) {
        const r = stream(text, [start - 5, cut], tools);
        expect(r.shown, `${call} cut at ${cut - start}`).toBe(text.slice(0, start));
        expect(r.shown + r.released).toBe(text);
      }
    }
    // A label of prose, or one naming no tool, streams on.
    const prose = "Result: the tests pass.\nTool: none needed here.\nNote: read_file is fine.\n";
    expect(stream(prose, [3, 9, 30], tools).shown).toBe(prose);
  });

  it("waits on a fence opener until its line ends", () => {
    expect(stream("```json\n{}\n```", [2, 5])).toEqual({ shown: "", released: "```json\n{}\n```" });
    const code = "```ts\nconst a = 1;\n```\n";
    expect(stream(code, [2, 5, 9]).shown).toBe(code);
  });

  // Wrappers no fixed list names (issue 24): held by what their names say, wherever a delta cuts them.
  it.each([
    "<|my_call|>", // the unnamed special token
    "<｜DSML｜function_calls>", // DeepSeek V3.2 (sglang deepseekv32 case)
    "<minimax:tool_call>", // MiniMax-M2 tool_calling_guide.md
    "<acme:ToolCall>",
    "<invoke name=",
    "[TOOL_REQUEST]", // LM Studio
    "<|tool_calls_section_begin|>", // Kimi K2
    "```tool_call\n",
  ])("holds the unlisted wrapper %s", (marker) => {
    const text = `Let me look.\n\nsome words ${marker}{"name": "read_file"}`;
    const start = text.indexOf(marker);
    for (let cut = start; cut <= start + marker.length; cut++) {
      const r = stream(text, [start - 3, cut], ["read_file"]);
      expect(r.shown, `${marker} cut at ${cut - start}`).toBe(text.slice(0, start));
      expect(r.shown + r.released).toBe(text);
    }
  });

  it("holds a bare call after a lead-in of three short lines, and a line opening with a tool's name", () => {
    const call = '{"name": "read_file", "arguments": {"path": "a.txt"}}';
    const lead = "The file is missing.\nI checked twice.\nI will list it.\n";
    expect(stream(lead + call, [5, 30, 60])).toEqual({ shown: lead, released: call });
    const py = 'Let me search.\ngrep_files(pattern="TODO")';
    expect(stream(py, [3, 17, 20], ["grep_files"])).toEqual({ shown: "Let me search.\n", released: py.slice(15) });
    // Prose that merely starts with a word is shown as it comes.
    const prose = "Greetings. The build passes.\nNothing else to do.";
    expect(stream(prose, [3, 17, 33], ["grep_files"]).shown).toBe(prose);
  });

  // Dialects read since the held-out table (tool-call-heldout.test.ts cites each source): each is
  // held from its first character, wherever the deltas cut it, after a lead-in line of prose.
  it.each([
    "<tool: function>\nrun_shell_command ls\n</tool>", // CWM
    "<<function>>read_file(path='src/a.ts')", // Gorilla OpenFunctions v2
    '**Tool Call:**\n```json\n{"name": "read_file", "arguments": {"path": "a"}}\n```', // RWKV
    'Action:\n{\n  "name": "read_file",\n  "arguments": {"path": "a"}\n}', // smolagents
    "<|tool_call:start|>read_file\n<|tool_arg:start|>path<|tool_arg:value|>a<|tool_arg:end|>", // Solar Open 2
  ])("holds %j from its first character", (call) => {
    const text = `I will look at the file now.\n${call}`;
    const start = text.indexOf(call);
    for (let cut = start; cut <= text.length; cut++) {
      const r = stream(text, [start - 3, cut], ["read_file", "run_shell_command"]);
      expect(r.shown, `cut at ${cut - start}`).toBe(text.slice(0, start));
      expect(r.shown + r.released).toBe(text);
    }
  });

  it.each([
    '### read_file\n```json\n{"path": "a"}\n```',
    '**read_file**\n```json\n{"path": "a"}\n```',
    '*read_file()*\n```\n{"path": "a"}\n```',
    "command:\n  name: read_file\n  args:\n    path: a\n",
    "name: read_file\narguments:\n  path: a\n",
  ])("holds the bare call %j at the reply's start, wherever the deltas cut it", (call) => {
    for (let cut = 1; cut <= call.length; cut++) {
      const r = stream(call, [cut], ["read_file"]);
      expect(r.shown, `cut at ${cut}`).toBe("");
      expect(r.released).toBe(call);
    }
  });

  it("streams prose that opens with a heading, emphasis or a key line", () => {
    for (const prose of [
      "## Summary\nThe parser reads flags.\n",
      "**Note**: the build passes.\nNothing else.\n",
      "Summary:\nThe parser reads flags.\n",
      "Steps:\n- read the file\n- fix it\n",
    ]) {
      const lines = prose.split("\n");
      const r = stream(prose, [4, prose.indexOf("\n") + 4, prose.length - 2], ["read_file"]);
      expect(r.shown, prose).toBe(prose);
      expect(lines.length).toBeGreaterThan(1);
    }
  });

  it("loses and repeats nothing, however the reply is cut", () => {
    const alphabet = ["a", " ", "\n", "{", "`", "<", "|", "tool_call>", "[TOOL_CALLS]", "<function=", "x"];
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...alphabet), { maxLength: 40 }),
        fc.array(fc.nat(200), { maxLength: 10 }),
        (parts, cuts) => {
          const text = parts.join("");
          const r = stream(text, cuts);
          expect(r.shown + r.released).toBe(text);
          // Whatever is shown before the end holds no complete marker.
          for (const m of MARKERS) expect(r.shown.includes(m)).toBe(false);
        },
      ),
    );
  });
});
