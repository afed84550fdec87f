import { describe, expect, it } from "vitest";
import type { ConversationMessage } from "../../src/protocol/conversation.js";
import { init } from "../../src/ui/update/index.js";
import { view } from "../../src/ui/view/index.js";
import { agent, feed, key, newModel, strip, testConfig, typeText } from "./helpers.js";

const fifty = Array.from({ length: 50 }, (_, i) => `output line ${i + 1}`).join("\n");

function ranTool(name: string, ok: boolean, output: string, label = "run npm test") {
  return feed(
    newModel({ width: 80, height: 90 }),
    ...typeText("go"),
    key("enter"),
    agent({ type: "tool-start", id: "c1", name, args: {}, label }),
    agent({
      type: "tool-end",
      id: "c1",
      display: {
        label,
        ok,
        summary: ok ? "50 lines" : "exit 1 · 50 lines",
        output: `exit code ${ok ? 0 : 1}\n${output}`,
      },
    }),
  ).model;
}

const screen = (m: ReturnType<typeof ranTool>) => strip(view(m).transcript.join("\n"));

describe("tool output on demand", () => {
  it("Ctrl+O expands every tool entry to its output, capped with '+N more lines'; again folds it", () => {
    let model = ranTool("read_file", true, fifty, "read log.txt");
    expect(screen(model)).not.toContain("output line 25");
    model = feed(model, key("o", { ctrl: true })).model;
    expect(screen(model)).toContain("⎿ exit code 0");
    expect(screen(model)).toContain("output line 50");
    model = { ...model, toolOutputLines: 20 };
    const text = screen(model);
    expect(text).toContain("output line 19");
    expect(text).not.toContain("output line 20\n");
    expect(text).toContain("… +31 more lines");
    model = feed(model, key("o", { ctrl: true })).model;
    expect(screen(model)).not.toContain("output line 19");
  });

  it("a failed shell command shows its last 10 lines while collapsed", () => {
    const model = ranTool("run_shell_command", false, fifty);
    const text = screen(model);
    expect(text).toContain("output line 50");
    expect(text).toContain("output line 41");
    expect(text).not.toContain("output line 40\n");
    expect(text).toContain("… 41 earlier lines · Ctrl+O to see all output");
  });

  it("a resumed transcript keeps the output (from the message's display)", () => {
    const conversation: ConversationMessage[] = [
      { role: "user", content: "go" },
      { role: "assistant", content: "", toolCalls: [{ id: "c1", name: "run_shell_command", args: { command: "x" } }] },
      {
        role: "tool",
        content: "exit code 1\nboom",
        toolCallId: "c1",
        toolName: "run_shell_command",
        display: { label: "run x", ok: false, summary: "exit 1 · 1 line", output: "exit code 1\nAssertionError: boom" },
      },
    ];
    const model = init({ width: 80, height: 24, now: 0, config: testConfig(), sessionId: "s", conversation });
    expect(screen(model)).toContain("AssertionError: boom");
  });
});

describe("a tool's clock while its permission dialog waits", () => {
  it("stands still, and goes on from there once answered", () => {
    let { model } = feed(
      newModel(),
      ...typeText("go"),
      key("enter"),
      { type: "tick", now: 1000 },
      agent({ type: "tool-start", id: "c1", name: "run_shell_command", args: {}, label: "run make" }),
      { type: "tick", now: 3000 },
      agent({
        type: "permission-request",
        id: "p1",
        tool: "run_shell_command",
        args: {},
        preview: "make",
        allowKey: "run_shell_command",
      }),
      { type: "tick", now: 60_000 },
    );
    expect(screen(model)).toMatch(/run make 2s/);
    ({ model } = feed(model, key("y"), { type: "tick", now: 61_000 }));
    expect(screen(model)).toMatch(/run make 3s/);
  });
});

describe("tool output cannot drive the terminal", () => {
  it("escape sequences in a command's output (OSC 52 clipboard write, clear screen) are shown, never sent", () => {
    const evil = "fine\n\x1b]52;c;Y2FuYXJ5\x07\x1b[2J\x1b[31mred?\x9b1;1H\r\n     7\tconst x = '\x1b]0;title\x07';";
    for (const lang of [undefined, "ts"]) {
      let { model } = feed(
        newModel({ width: 80, height: 40 }),
        ...typeText("go"),
        key("enter"),
        agent({ type: "tool-start", id: "c1", name: "run_shell_command", args: {}, label: "run cat x" }),
        agent({
          type: "tool-end",
          id: "c1",
          display: {
            label: "run cat x",
            ok: false,
            summary: "exit 1",
            output: evil,
            ...(lang ? { outputLang: lang } : {}),
          },
        }),
      );
      ({ model } = feed(model, key("o", { ctrl: true })));
      const lines = view(model).transcript.join("\n");
      // Only our own colour (SGR) sequences remain; the canary's escapes are made visible.
      expect(lines.replace(/\x1b\[[0-9;]*m/g, "")).not.toMatch(/[\x1b\x07\x9b]/);
      expect(strip(lines)).toContain("Y2FuYXJ5");
    }
  });
});
