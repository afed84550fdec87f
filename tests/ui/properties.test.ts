// update and view over random sequences of messages: they never throw and keep their invariants.
import { beforeAll, describe, expect, test } from "vitest";
import fc from "fast-check";
import stringWidth from "string-width";
import stripAnsi from "strip-ansi";
import type { DoneReason } from "../../src/protocol/agent-event.js";
import type { ConversationMessage, ToolCall } from "../../src/protocol/conversation.js";
import type { Model } from "../../src/ui/model.js";
import type { Cmd } from "../../src/ui/msg.js";
import { init, update } from "../../src/ui/update/index.js";
import { view } from "../../src/ui/view/index.js";
import { transcriptHeight } from "../../src/ui/layout/screen.js";
import { anchorIndex, linesFrom } from "../../src/ui/layout/transcript.js";
import { loadMarkdown } from "../../src/render/markdown.js";
import {
  feed as feedAll,
  key,
  newModel,
  stamp,
  strip,
  testConfig,
  typeText,
  type TestEvent,
  type TestMsg,
} from "./helpers.js";

beforeAll(async () => {
  expect(await loadMarkdown()).toBe(true);
});

// Fixed seed: a failure reproduces; fast-check prints the counterexample either way.
const SEED = 20261123;

const oddText = fc.constantFrom(
  "",
  "hello",
  "word ",
  "\n",
  "\n\n",
  "漢字かな",
  "😀👨‍👩‍👧‍👦",
  "e\u0301",
  "\t",
  "\r\n",
  "# Title\n",
  "**bold** ",
  "```ts\nconst x = 1;\n```\n",
  "| a | b |\n|---|---|\n| 1 | 2 |\n",
  "- item\n",
  "\x1b[2J\x1b[H",
  "\x1b]52;c;SGVsbG8=\x07",
  "\x1b]0;pwned\x07",
  "\x1b]8;;javascript:alert(1)\x07x\x1b]8;;\x07",
  "\x9b31m",
  "x".repeat(500),
  "long line ".repeat(60),
);
const text = fc.oneof(
  { arbitrary: oddText, weight: 4 },
  { arbitrary: fc.string({ maxLength: 30 }), weight: 2 },
  { arbitrary: fc.string({ unit: "binary", maxLength: 12 }), weight: 1 },
);
// A few ids that repeat, so starts, ends, calls and results meet; sometimes a random one.
const callIdArb = fc.oneof(
  { arbitrary: fc.constantFrom("c1", "c2", "c3"), weight: 4 },
  { arbitrary: fc.string({ maxLength: 4 }), weight: 1 },
);
const toolCallArb: fc.Arbitrary<ToolCall> = fc.record({
  id: callIdArb,
  name: fc.constantFrom("read_file", "run_shell_command", "edit_file"),
  args: fc.constantFrom<Record<string, unknown>>({}, { path: "a.ts" }, { command: "ls" }),
});
const messageArb: fc.Arbitrary<ConversationMessage> = fc.oneof(
  fc.record({ role: fc.constant("assistant" as const), content: text }),
  fc.record({
    role: fc.constant("assistant" as const),
    content: text,
    toolCalls: fc.array(toolCallArb, { minLength: 1, maxLength: 3 }),
  }),
  fc.record({ role: fc.constant("assistant" as const), content: text, interrupted: fc.constant(true) }),
  fc.record({
    role: fc.constant("tool" as const),
    content: text,
    toolCallId: callIdArb,
    toolName: fc.constant("read_file"),
  }),
  fc.record({ role: fc.constant("user" as const), content: text }),
);
const doneReason = fc.constantFrom<DoneReason>("complete", "interrupted", "stuck", "max-steps", "error");

const agentEvent: fc.Arbitrary<TestEvent> = fc.oneof(
  { arbitrary: text.map((delta) => ({ type: "text" as const, delta })), weight: 6 },
  { arbitrary: text.map((delta) => ({ type: "thinking" as const, delta })), weight: 2 },
  {
    arbitrary: fc
      .constantFrom("loading", "thinking", "answering", "tool")
      .map((phase) => ({ type: "status" as const, phase })),
    weight: 1,
  },
  {
    arbitrary: fc.record({
      type: fc.constant("tool-start" as const),
      id: callIdArb,
      name: fc.constant("read_file"),
      args: fc.constant({}),
      label: text,
      parentId: fc.option(callIdArb, { nil: undefined }),
    }),
    weight: 3,
  },
  {
    arbitrary: fc.record({
      type: fc.constant("tool-end" as const),
      id: callIdArb,
      display: fc.record(
        {
          label: text,
          ok: fc.boolean(),
          summary: text,
          path: text,
          diff: fc.constantFrom("--- a/x\n+++ b/x\n@@ -1 +1 @@\n-old\n+new\n", "", "@@ garbage"),
        },
        { requiredKeys: ["label", "ok", "summary"] },
      ),
    }),
    weight: 4,
  },
  {
    arbitrary: fc.record({
      type: fc.constant("permission-request" as const),
      id: fc.constantFrom("p1", "p2"),
      tool: fc.constantFrom("edit_file", "run_shell_command"),
      args: fc.constant({}),
      preview: fc.oneof(text, fc.constant("--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n")),
      allowKey: fc.constant("edit_file"),
    }),
    weight: 1,
  },
  { arbitrary: messageArb.map((message) => ({ type: "message" as const, message })), weight: 4 },
  {
    arbitrary: fc.record({
      type: fc.constant("usage" as const),
      promptTokens: fc.nat(100_000),
      completionTokens: fc.nat(10_000),
      contextWindow: fc.constant(8192),
    }),
    weight: 1,
  },
  {
    arbitrary: fc.record({
      type: fc.constant("notice" as const),
      level: fc.constantFrom("info", "warn", "error"),
      text,
    }),
    weight: 1,
  },
  {
    arbitrary: fc.record({
      type: fc.constant("error" as const),
      message: text,
      hint: fc.option(text, { nil: undefined }),
    }),
    weight: 1,
  },
  { arbitrary: doneReason.map((reason) => ({ type: "done" as const, reason })), weight: 3 },
);

const keyArb = fc.oneof(
  fc
    .constantFrom(
      "enter",
      "escape",
      "pageup",
      "pagedown",
      "home",
      "end",
      "up",
      "down",
      "tab",
      "backspace",
      "delete",
      "left",
      "right",
    )
    .map((name) => ({ name })),
  fc.constantFrom("c", "d", "j", "t", "a", "e", "u", "k", "w").map((name) => ({ name, ctrl: true })),
  fc.constant({ name: "enter", meta: true }),
  fc.constantFrom("a", "y", "n", "/", " ", "漢", "😀", "q").map((name) => ({ name })),
);

const msgArb: fc.Arbitrary<TestMsg> = fc.oneof(
  { arbitrary: keyArb.map((key) => ({ type: "key" as const, key })), weight: 6 },
  {
    arbitrary: fc
      .oneof(text, fc.constantFrom("/help", "/thinking", "/clear", "/permissions yolo"))
      .map((t) => ({ type: "paste" as const, text: t })),
    weight: 2,
  },
  { arbitrary: fc.constantFrom("up", "down").map((direction) => ({ type: "wheel" as const, direction })), weight: 2 },
  {
    arbitrary: fc
      .oneof(
        fc.record({ width: fc.integer({ min: 0, max: 30 }), height: fc.integer({ min: 0, max: 10 }) }),
        fc.record({ width: fc.integer({ min: 30, max: 300 }), height: fc.integer({ min: 10, max: 120 }) }),
      )
      .map(({ width, height }) => ({ type: "resize" as const, width, height })),
    weight: 1,
  },
  { arbitrary: fc.nat(10_000_000).map((now) => ({ type: "tick" as const, now })), weight: 1 },
  { arbitrary: agentEvent.map((event) => ({ type: "agent" as const, event })), weight: 12 },
  {
    arbitrary: fc.record({
      type: fc.constant("picker-items" as const),
      purpose: fc.constantFrom("model", "session"),
      items: fc.array(fc.record({ value: fc.string({ maxLength: 8 }), label: text }), { maxLength: 4 }),
    }),
    weight: 1,
  },
  {
    arbitrary: fc.record({
      type: fc.constant("notice" as const),
      level: fc.constantFrom("info", "warn", "error"),
      text,
    }),
    weight: 1,
  },
);

const tooWide = (lines: string[], width: number) => lines.filter((l) => stringWidth(stripAnsi(l)) > width);
// Anything that would drive the terminal: controls other than our own SGR styling.
const unsafe = (lines: string[]) => lines.filter((l) => /[\x00-\x1f\x7f-\x9f]/.test(l.replace(/\x1b\[[0-9;]*m/g, "")));

function streamingCount(model: Model): number {
  return model.entries.filter((e) => e.kind === "assistant" && e.streaming).length;
}

/** Tool calls of the conversation that no tool message answers. */
function callsWithoutResult(conversation: ConversationMessage[]): string[] {
  const answered = new Set(conversation.filter((m) => m.role === "tool").map((m) => m.toolCallId));
  return conversation
    .flatMap((m) => (m.role === "assistant" ? (m.toolCalls ?? []) : []))
    .filter((c) => !answered.has(c.id))
    .map((c) => c.id);
}

function checkView(model: Model): void {
  const frame = view(model);
  const height = transcriptHeight(model);
  expect(frame.transcript.length).toBeLessThanOrEqual(height);
  const lines = [...frame.transcript, frame.status, frame.rule, ...frame.input, ...(frame.dialog?.lines ?? [])];
  expect(unsafe([...lines, frame.dialog?.title ?? ""])).toEqual([]);
  expect(tooWide([...frame.transcript, frame.status, frame.rule, ...frame.input], model.width)).toEqual([]);
  if (frame.dialog) {
    expect(frame.dialog.width).toBeLessThanOrEqual(model.width);
    expect(frame.dialog.height).toBeLessThanOrEqual(model.height);
    expect(tooWide(frame.dialog.lines, frame.dialog.width)).toEqual([]);
  }
}

/** Runs msgs through update, checking the invariants after every step. */
function play(msgs: TestMsg[], start: Model = newModel()): Model {
  let model = start;
  for (const msg of msgs) {
    let cmds: Cmd[];
    [model, cmds] = update(model, stamp(model, msg));
    // Cmds cross to the worker and the session writer: plain data, no revoked immer drafts.
    expect(() => structuredClone(cmds)).not.toThrow();
    expect(streamingCount(model)).toBeLessThanOrEqual(1);
    // Scrolled up, the anchor names an entry that exists and the view below it is full.
    if (model.anchor) {
      const index = anchorIndex(model);
      expect(index).toBeGreaterThanOrEqual(0);
      const top = { index, line: model.anchor.line };
      expect(linesFrom(model, model.width, top)).toBeGreaterThan(transcriptHeight(model));
    }
    if (msg.type === "agent" && msg.event.type === "done") {
      expect(callsWithoutResult(model.conversation)).toEqual([]);
      expect(streamingCount(model)).toBe(0);
      expect(model.entries.some((e) => e.kind === "tool" && e.state === "running")).toBe(false);
    }
    checkView(model);
  }
  return model;
}

// A run in flight: the random events arrive while the app waits for an answer, as they would.
const started = (): Model => {
  let model = newModel({ width: 60, height: 16 });
  for (const ch of "go") [model] = update(model, { type: "key", key: { name: ch } });
  [model] = update(model, { type: "key", key: { name: "enter" } });
  return model;
};

describe("update and view over random message sequences", () => {
  test("never throw and keep their invariants (from an idle start)", () => {
    fc.assert(
      fc.property(fc.array(msgArb, { maxLength: 40 }), (msgs) => {
        play(msgs);
      }),
      { numRuns: Number(process.env.PROP_RUNS ?? 100), seed: process.env.PROP_RUNS ? undefined : SEED },
    );
  });

  test("never throw and keep their invariants (during a run, agent events mostly)", () => {
    const mostlyAgent = fc.oneof(
      { arbitrary: agentEvent.map((event): TestMsg => ({ type: "agent", event })), weight: 4 },
      { arbitrary: msgArb, weight: 1 },
    );
    fc.assert(
      fc.property(fc.array(mostlyAgent, { maxLength: 40 }), (msgs) => {
        play(msgs, started());
      }),
      { numRuns: Number(process.env.PROP_RUNS ?? 100), seed: process.env.PROP_RUNS ? undefined : SEED },
    );
  });

  test("a notice arriving mid-answer does not split the answer into two streaming messages", () => {
    const model = play(
      [
        { type: "agent", event: { type: "text", delta: "first half, " } },
        { type: "agent", event: { type: "notice", level: "info", text: "MCP: demo (2 tools)" } },
        { type: "agent", event: { type: "text", delta: "second half" } },
        {
          type: "agent",
          event: { type: "message", message: { role: "assistant", content: "first half, second half" } },
        },
        { type: "agent", event: { type: "done", reason: "complete" } },
      ],
      started(),
    );
    const answers = model.entries.filter((e) => e.kind === "assistant");
    expect(answers.map((e) => e.kind === "assistant" && e.text)).toEqual(["first half, second half"]);
  });

  test("a stray delta while idle does not leave a second streaming answer once the next prompt runs", () => {
    const model = play([
      { type: "agent", event: { type: "text", delta: "late text from a finished run" } },
      { type: "key", key: { name: "q" } },
      { type: "key", key: { name: "enter" } },
      { type: "agent", event: { type: "text", delta: "the new answer" } },
    ]);
    const streaming = model.entries.filter((e) => e.kind === "assistant" && e.streaming);
    expect(streaming.map((e) => e.kind === "assistant" && e.text)).toEqual(["the new answer"]);
  });

  test("scrolled up, a shrinking transcript keeps the scroll within the transcript", () => {
    const long = Array.from({ length: 60 }, (_, i) => `row ${i}`).join("\n\n");
    const model = play(
      [
        { type: "agent", event: { type: "thinking", delta: long } },
        { type: "key", key: { name: "t", ctrl: true } },
        { type: "key", key: { name: "home" } },
        { type: "key", key: { name: "t", ctrl: true } },
      ],
      started(),
    );
    // Folded, everything fits on one screen: there is nothing left to scroll.
    expect(model.anchor).toBeNull();
    expect(stripAnsi(view(model).transcript.join("\n"))).toContain("agent0");
  });
});

describe("before boot is ready", () => {
  test("a prompt typed at once waits, then runs after the resumed conversation with the booted settings", () => {
    // main's provisional model: settings, session and skills still loading.
    let model = init({
      width: 80,
      height: 24,
      now: 1000,
      config: testConfig({ systemPrompt: "" }),
      sessionId: "",
      booted: false,
    });
    let cmds: Cmd[];
    ({ model, cmds } = feedAll(model, ...typeText("question one"), key("enter")));
    // Only the history is kept (the runtime runs it after boot); nothing is sent yet.
    expect(cmds).toEqual([{ type: "history-append", text: "question one" }]);
    expect(model.conversation).toEqual([]);

    const resumed: ConversationMessage[] = [
      { role: "user", content: "earlier" },
      { role: "assistant", content: "earlier answer" },
    ];
    const booted = testConfig({ systemPrompt: "You are agent0, with project context." });
    [model, cmds] = update(model, {
      type: "boot-ready",
      config: booted,
      sessionId: "s9",
      conversation: resumed,
      skills: [],
      warnings: [],
    });
    expect(resumed).toHaveLength(2); // update never changes its input
    // newModel's clock reads 1000: the time the message was sent, for /rewind's list.
    const all = [...resumed, { role: "user", content: "question one", sentAt: 1000 }];
    expect(model.conversation).toEqual(all);
    expect(cmds).toEqual([
      { type: "worker", command: { type: "probe", config: booted } },
      { type: "session-append", message: { role: "user", content: "question one", sentAt: 1000 } },
      {
        type: "worker",
        command: { type: "run", runId: 1, conversation: all, config: { ...booted, interactive: true } },
      },
    ]);
    expect(() => structuredClone(cmds)).not.toThrow();
    const shown = strip(view(model).transcript.join("\n"));
    expect(shown).toContain("earlier answer");
    expect(shown).toContain("› question one");
  });
});
