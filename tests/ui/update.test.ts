import { describe, expect, it } from "vitest";
import stringWidth from "string-width";
import { view } from "../../src/ui/view/index.js";
import { agent, feed, key, newModel, strip, typeText, cmdKind } from "./helpers.js";

describe("update: a user sends a prompt and the answer streams in", () => {
  it("sending a prompt shows it, saves it and starts a run with the whole conversation", () => {
    const { model, cmds } = feed(newModel(), ...typeText("hello"), key("enter"));
    expect(model.input.text).toBe("");
    expect(model.run).not.toBeNull();
    expect(model.conversation).toEqual([{ role: "user", content: "hello", sentAt: 1000 }]);
    expect(cmds.map(cmdKind)).toEqual(["history-append", "session-append", "run"]);
    const run = cmds.find((c) => c.type === "worker");
    expect(run?.type === "worker" && run.command.type === "run" && run.command.conversation).toEqual([
      { role: "user", content: "hello", sentAt: 1000 },
    ]);
  });

  it("events of a run that is no longer current are dropped, whatever they are", () => {
    let { model } = feed(newModel(), ...typeText("one"), key("enter"));
    const first = model.run!.id;
    ({ model } = feed(model, agent({ type: "done", reason: "complete" }), ...typeText("two"), key("enter")));
    expect(model.run!.id).not.toBe(first);
    const before = model;
    ({ model } = feed(
      model,
      agent({ type: "text", delta: "late words", runId: first }),
      agent({ type: "tool-start", id: "t", name: "read_file", args: {}, label: "read x", runId: first }),
      agent({ type: "done", reason: "complete", runId: first }),
    ));
    expect(model).toBe(before);
    ({ model } = feed(model, agent({ type: "text", delta: "answer two" })));
    expect(strip(view(model).transcript.join("\n"))).toContain("answer two");
    expect(strip(view(model).transcript.join("\n"))).not.toContain("late words");
  });

  it("streamed text grows the last message", () => {
    let { model } = feed(newModel(), ...typeText("hi"), key("enter"));
    ({ model } = feed(model, agent({ type: "text", delta: "Hel" })));
    const before = model.entries.length;
    ({ model } = feed(model, agent({ type: "text", delta: "lo there" })));
    expect(model.entries.length).toBe(before);
    const last = model.entries[model.entries.length - 1]!;
    expect(last.kind === "assistant" && last.text).toBe("Hello there");
    expect(last.kind === "assistant" && last.streaming).toBe(true);
    expect(strip(view(model).transcript.join("\n"))).toContain("Hello there");
  });

  it("Esc interrupts: the worker is told, and the partial answer is kept and marked", () => {
    let { model } = feed(newModel(), ...typeText("hi"), key("enter"), agent({ type: "text", delta: "partial ans" }));
    const esc = feed(model, key("escape"));
    expect(esc.cmds).toEqual([{ type: "worker", command: { type: "cancel", runId: 1 } }]);
    ({ model } = feed(
      esc.model,
      agent({ type: "message", message: { role: "assistant", content: "partial ans", interrupted: true } }),
      agent({ type: "done", reason: "interrupted" }),
    ));
    const last = model.entries[model.entries.length - 1]!;
    expect(last.kind === "assistant" && last.interrupted).toBe(true);
    expect(last.kind === "assistant" && last.text).toBe("partial ans");
    expect(model.run).toBeNull();
    expect(model.conversation[1]).toEqual({ role: "assistant", content: "partial ans", interrupted: true });
    expect(strip(view(model).transcript.join("\n"))).toContain("interrupted");
  });

  it("messages queued behind a run survive Esc and Ctrl-C: back in the input box, not sent, not dropped", () => {
    for (const stop of [key("escape"), key("c", { ctrl: true })]) {
      let { model } = feed(newModel(), ...typeText("hi"), key("enter"), agent({ type: "text", delta: "partial" }));
      // Alt+Enter during a run keeps the message for after it.
      ({ model } = feed(
        model,
        ...typeText("second"),
        key("enter", { meta: true }),
        ...typeText("third"),
        key("enter", { meta: true }),
      ));
      expect(model.queued).toEqual(["second", "third"]);
      ({ model } = feed(model, ...typeText("draft")));
      const stopped = feed(model, stop);
      expect(stopped.model.queued).toEqual([]);
      expect(stopped.model.input.text).toBe("second\n\nthird\n\ndraft");
      expect(strip(view(stopped.model).transcript.join("\n"))).toContain(
        "Your 2 queued messages are back in the input box",
      );
      const after = feed(stopped.model, agent({ type: "done", reason: "interrupted" }));
      expect(after.model.run).toBeNull();
      expect(after.cmds.map(cmdKind)).not.toContain("run");
      // Enter sends them as the next prompt.
      const sent = feed(after.model, key("enter"));
      expect(sent.model.conversation.at(-1)).toEqual({
        role: "user",
        content: "second\n\nthird\n\ndraft",
        sentAt: 1000,
      });
    }
  });

  it("Enter during a run steers it: sent to the worker for the next step, shown where it went in, back in the input on Esc", () => {
    let { model } = feed(newModel(), ...typeText("hi"), key("enter"), agent({ type: "text", delta: "working" }));
    const runId = model.run!.id;
    const sent = feed(model, ...typeText("use pnpm, not npm"), key("enter"));
    expect(sent.cmds).toContainEqual({
      type: "worker",
      command: { type: "steer", runId, id: 1, message: { role: "user", content: "use pnpm, not npm" } },
    });
    expect(sent.model.queued).toEqual([]);
    // Shown dimmed above the input until the model takes it.
    expect(view(sent.model).transcript.map(strip)).toContain("next step: use pnpm, not npm");
    // The loop took it: it shows as the user's message, not as agent0's note to the model.
    ({ model } = feed(
      sent.model,
      agent({ type: "steered", id: 1 }),
      agent({ type: "message", message: { role: "user", content: "use pnpm, not npm" } }),
    ));
    const shown = strip(view(model).transcript.join("\n"));
    expect(shown).toContain("› use pnpm, not npm");
    expect(shown).not.toContain("agent0 → model: use pnpm");
    expect(model.steering).toEqual([]);
    // One not taken yet comes back into the input on Esc, and is not sent after the run.
    ({ model } = feed(model, ...typeText("and run the tests"), key("enter")));
    const stopped = feed(model, key("escape"));
    expect(stopped.model.input.text).toBe("and run the tests");
    const after = feed(stopped.model, agent({ type: "done", reason: "interrupted" }));
    expect(after.cmds.map(cmdKind)).not.toContain("run");
  });

  it("a steer message the run ended without taking is sent as the next prompt", () => {
    let { model } = feed(newModel(), ...typeText("hi"), key("enter"), agent({ type: "text", delta: "done soon" }));
    ({ model } = feed(model, ...typeText("one more thing"), key("enter")));
    const after = feed(model, agent({ type: "done", reason: "error" }));
    expect(after.model.conversation.at(-1)).toEqual({ role: "user", content: "one more thing", sentAt: 1000 });
    expect(after.cmds.map(cmdKind)).toContain("run");
  });

  it("a failed save flags 'not saved' in the status line and says why, once; a later success clears it", () => {
    let { model } = feed(newModel(), {
      type: "save-state",
      saved: false,
      text: "Could not save the session: the disk is full (ENOSPC) — the conversation continues in memory",
    });
    expect(strip(view(model).status)).toContain("not saved");
    expect(strip(view(model).transcript.join("\n"))).toContain("the disk is full (ENOSPC)");
    ({ model } = feed(model, { type: "save-state", saved: true, text: "The session is saved again." }));
    expect(strip(view(model).status)).not.toContain("not saved");
  });

  it("every applied agent event goes to the session recorder; a stale run's never does", () => {
    const { model, cmds } = feed(newModel(), ...typeText("hi"), key("enter"), agent({ type: "text", delta: "Hel" }));
    expect(cmds.filter((c) => c.type === "session-record")).toEqual([
      { type: "session-record", event: { type: "text", delta: "Hel", runId: model.run!.id } },
    ]);
    const stale = feed(model, agent({ type: "text", delta: "late", runId: model.run!.id + 100 }));
    expect(stale.cmds).toEqual([]);
  });

  it("a resize re-wraps the transcript to the new width", () => {
    const long = "lorem ipsum dolor sit amet ".repeat(20).trim();
    let { model } = feed(
      newModel({ width: 100 }),
      ...typeText("q"),
      key("enter"),
      agent({ type: "text", delta: long }),
    );
    const wide = view(model).transcript;
    ({ model } = feed(model, { type: "resize", width: 40, height: 24 }));
    const narrow = view(model).transcript;
    // The loop below must check something: the long answer fills the narrow screen.
    expect(narrow.length).toBeGreaterThan(5);
    for (const line of narrow) expect(stringWidth(strip(line))).toBeLessThanOrEqual(40);
    expect(narrow.filter((l) => strip(l).includes("lorem")).length).toBeGreaterThan(
      wide.filter((l) => strip(l).includes("lorem")).length,
    );
  });

  it("view returns at most `height` lines for a 10,000-line transcript", () => {
    const text = Array.from({ length: 10_000 }, (_, i) => `line ${i}`).join("\n\n");
    const { model } = feed(
      newModel({ height: 30 }),
      ...typeText("q"),
      key("enter"),
      agent({ type: "text", delta: text }),
    );
    const frame = view(model);
    expect(frame.transcript.length).toBeLessThanOrEqual(30);
    expect(strip(frame.transcript.join("\n"))).toContain("line 9999");
  });

  it("PgUp scrolls into history and End follows the newest output again", () => {
    const text = Array.from({ length: 200 }, (_, i) => `row ${i}`).join("\n\n");
    let { model } = feed(
      newModel({ height: 20 }),
      ...typeText("q"),
      key("enter"),
      agent({ type: "text", delta: text }),
    );
    ({ model } = feed(model, key("pageup")));
    expect(model.anchor).not.toBeNull();
    expect(strip(view(model).transcript.join("\n"))).not.toContain("row 199");
    ({ model } = feed(model, key("home")));
    expect(strip(view(model).transcript.join("\n"))).toContain("agent0");
    ({ model } = feed(model, key("end")));
    expect(model.anchor).toBeNull();
    expect(strip(view(model).transcript.join("\n"))).toContain("row 199");
  });

  it("Up and Down walk the input history; Alt+Enter and Ctrl+J insert new lines", () => {
    let { model } = feed(newModel(), ...typeText("first"), key("enter"), agent({ type: "done", reason: "complete" }));
    ({ model } = feed(model, ...typeText("second"), key("enter"), agent({ type: "done", reason: "complete" })));
    ({ model } = feed(model, key("up")));
    expect(model.input.text).toBe("second");
    ({ model } = feed(model, key("up")));
    expect(model.input.text).toBe("first");
    ({ model } = feed(model, key("down"), key("down")));
    expect(model.input.text).toBe("");
    ({ model } = feed(
      model,
      ...typeText("a"),
      key("enter", { meta: true }),
      ...typeText("b"),
      key("j", { ctrl: true }),
      ...typeText("c"),
    ));
    expect(model.input.text).toBe("a\nb\nc");
    const pasted = feed(model, { type: "paste", text: "x\ny" });
    expect(pasted.model.input.text).toBe("a\nb\ncx\ny");
    expect(pasted.cmds).toEqual([]);
  });

  it("Ctrl-C interrupts a run; idle, a first press arms the exit and a second quits; Ctrl-D quits", () => {
    const first = feed(newModel(), ...typeText("hi"), key("enter"), key("c", { ctrl: true }));
    let model = first.model;
    const cmds = first.cmds;
    expect(cmds.at(-1)).toEqual({ type: "worker", command: { type: "cancel", runId: 1 } });
    ({ model } = feed(model, agent({ type: "done", reason: "interrupted" })));
    // Claude Code and Codex: a first Ctrl+C never quits; it says how to.
    const armed = feed(model, key("c", { ctrl: true }));
    expect(armed.cmds).toEqual([{ type: "after", ms: 2000, msg: { type: "exit-disarm", seq: 1 } }]);
    expect(armed.model.quitting).toBe(false);
    expect(strip(view(armed.model).status)).toContain("Press Ctrl+C again to exit");
    expect(feed(armed.model, key("c", { ctrl: true })).cmds).toEqual([{ type: "quit" }]);
    // The window ends (its timer), or another key takes it back: the next Ctrl+C arms again.
    const expired = feed(armed.model, { type: "exit-disarm", seq: 1 }, key("c", { ctrl: true }));
    expect(expired.cmds.map((c) => c.type)).toEqual(["after"]);
    expect(strip(view(feed(armed.model, { type: "exit-disarm", seq: 1 }).model).status)).not.toContain("again");
    expect(feed(armed.model, key("x"), key("backspace"), key("c", { ctrl: true })).cmds.map((c) => c.type)).toEqual([
      "after",
    ]);
    // A stale timer (of an earlier arm) does not end a newer one.
    const rearmed = feed(armed.model, key("x"), key("backspace"), key("c", { ctrl: true })).model;
    expect(feed(rearmed, { type: "exit-disarm", seq: 1 }, key("c", { ctrl: true })).cmds).toEqual([{ type: "quit" }]);
    expect(feed(model, key("d", { ctrl: true })).cmds).toEqual([{ type: "quit" }]);
  });

  it("after done, every tool call in the conversation has a result", () => {
    const { model } = feed(
      newModel(),
      ...typeText("go"),
      key("enter"),
      agent({
        type: "message",
        message: { role: "assistant", content: "", toolCalls: [{ id: "c1", name: "read_file", args: { path: "a" } }] },
      }),
      agent({ type: "tool-start", id: "c1", name: "read_file", args: { path: "a" }, label: "read a" }),
      agent({ type: "done", reason: "error" }),
    );
    expect(model.conversation.at(-1)).toMatchObject({ role: "tool", toolCallId: "c1" });
    const tool = model.entries.find((e) => e.kind === "tool");
    expect(tool && tool.kind === "tool" && tool.state).toBe("error");
  });

  it("the status line names the state, the model and how full the context is", () => {
    let { model } = feed(newModel(), ...typeText("go"), key("enter"));
    expect(strip(view(model).status)).toContain("loading model…");
    ({ model } = feed(model, agent({ type: "thinking", delta: "hmm" })));
    expect(strip(view(model).status)).toContain("thinking…");
    ({ model } = feed(
      model,
      agent({ type: "text", delta: "x" }),
      agent({ type: "usage", promptTokens: 4096, completionTokens: 0, contextWindow: 8192 }),
    ));
    const status = strip(view(model).status);
    expect(status).toContain("answering…");
    expect(status).toContain("qwen3:8b");
    expect(status).toContain("50%");
    ({ model } = feed(
      model,
      agent({
        type: "tool-start",
        id: "t1",
        name: "run_shell_command",
        args: { command: "npm test" },
        label: "run npm test",
      }),
    ));
    expect(strip(view(model).status)).toMatch(/run npm test \d+s/);
    ({ model } = feed(
      model,
      agent({
        type: "permission-request",
        id: "p1",
        tool: "run_shell_command",
        args: {},
        preview: "npm test",
        allowKey: "run_shell_command",
      }),
    ));
    expect(strip(view(model).status)).toContain("waiting for your answer: run_shell_command");
  });

  it("quitting mid-answer saves what arrived as an interrupted answer, and leaves no call without a result", () => {
    const { model, cmds } = feed(
      newModel(),
      ...typeText("go"),
      key("enter"),
      agent({ type: "text", delta: "half an ans" }),
      key("d", { ctrl: true }),
    );
    expect(cmds.slice(-3).map(cmdKind)).toEqual(["cancel", "session-append", "quit"]);
    expect(model.conversation.at(-1)).toEqual({ role: "assistant", content: "half an ans", interrupted: true });
    expect(model.run).toBeNull();
  });

  it("while the model is loaded ahead of the first prompt, the status line says so; then the first run is not 'loading model'", () => {
    let { model } = feed(newModel(), agent({ type: "model-load", state: "loading" }));
    expect(strip(view(model).status)).toContain("loading the model…");
    ({ model } = feed(model, agent({ type: "model-load", state: "ready" }), ...typeText("go"), key("enter")));
    expect(strip(view(model).status)).toContain("thinking…");
    expect(strip(view(model).status)).not.toContain("loading");
  });
});
