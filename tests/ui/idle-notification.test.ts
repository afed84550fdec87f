// Claude Code's idle Notification (code.claude.com/docs/en/hooks, Notification: "the prompt input
// has been idle for at least 60 seconds" — "Claude is waiting for your input", notification_type
// `idle_prompt`; the wait is its `messageIdleNotifThresholdMs`, default 60000). The wait is a Cmd
// (`after`) and a numbered Msg: no clock here, so each case is a sequence of messages.
import { describe, expect, it } from "vitest";
import type { Cmd } from "../../src/ui/msg.js";
import type { Model } from "../../src/ui/model.js";
import { init } from "../../src/ui/update/index.js";
import { agent, feed, key, testConfig, typeText } from "./helpers.js";

const HOOKS = {
  Notification: [{ matcher: "idle_prompt", hooks: [{ type: "command" as const, command: "notify.sh" }], source: "t" }],
};

function model(hooks = HOOKS): Model {
  return init({ width: 80, height: 24, now: 1000, config: testConfig({ hooks }), sessionId: "s1" });
}

const waits = (cmds: Cmd[]) => cmds.flatMap((c) => (c.type === "after" && c.msg.type === "idle-check" ? [c] : []));
const told = (cmds: Cmd[]) =>
  cmds.flatMap((c) => (c.type === "worker" && c.command.type === "notification" ? [c.command] : []));

/** Sends a prompt and lets the model answer it. */
const answered = (m: Model) => feed(m, ...typeText("hi"), key("enter"), agent({ type: "done", reason: "complete" }));

describe("the idle Notification", () => {
  it("an answer starts the wait (60 s by default); when it ends untouched, the hooks hear idle_prompt once", () => {
    const first = answered(model());
    expect(waits(first.cmds)).toEqual([{ type: "after", ms: 60_000, msg: { type: "idle-check", seq: 1 } }]);
    const fired = feed(first.model, { type: "idle-check", seq: 1 });
    expect(told(fired.cmds)).toEqual([
      expect.objectContaining({
        type: "notification",
        notificationType: "idle_prompt",
        message: "agent0 is waiting for your input",
      }),
    ]);
    expect(told(fired.cmds)[0]!.config.hooks).toEqual(HOOKS);
    // Not again without new activity: a second timer of the same wait, or none at all, says nothing.
    const again = feed(fired.model, { type: "idle-check", seq: 1 }, { type: "idle-check", seq: 2 });
    expect(told(again.cmds)).toEqual([]);
    expect(waits(again.cmds)).toEqual([]);
  });

  it("before any answer nothing waits: start-up, keys and model facts start no wait", () => {
    const { cmds } = feed(
      model(),
      ...typeText("h"),
      key("backspace"),
      agent({ type: "model-info", model: "qwen3:8b", contextLength: 40960, numCtx: 8192, capabilities: [] }),
    );
    expect(waits(cmds)).toEqual([]);
    expect(told(cmds)).toEqual([]);
  });

  it("typing during the wait starts it over; the hooks hear of it only after a whole wait without keys", () => {
    const first = answered(model());
    const typed = feed(first.model, ...typeText("draft"), { type: "idle-check", seq: 1 });
    expect(told(typed.cmds)).toEqual([]);
    expect(waits(typed.cmds)).toEqual([{ type: "after", ms: 60_000, msg: { type: "idle-check", seq: 2 } }]);
    // The first timer's Msg is stale now.
    expect(told(feed(typed.model, { type: "idle-check", seq: 1 }).cmds)).toEqual([]);
    expect(told(feed(typed.model, { type: "idle-check", seq: 2 }).cmds)).toHaveLength(1);
  });

  it("not while a run is going: a run started during the wait ends it, and its own answer starts a new one", () => {
    const first = answered(model());
    const running = feed(first.model, ...typeText("next"), key("enter"));
    expect(running.model.run).not.toBeNull();
    const during = feed(running.model, { type: "idle-check", seq: 1 });
    expect(told(during.cmds)).toEqual([]);
    expect(waits(during.cmds)).toEqual([]);
    const done = feed(during.model, agent({ type: "done", reason: "complete" }));
    expect(waits(done.cmds)).toEqual([{ type: "after", ms: 60_000, msg: { type: "idle-check", seq: 2 } }]);
    expect(told(feed(done.model, { type: "idle-check", seq: 2 }).cmds)).toHaveLength(1);
  });

  it("a run the user stopped starts no wait, nor does any run without a Notification hook", () => {
    const stopped = feed(model(), ...typeText("hi"), key("enter"), agent({ type: "done", reason: "interrupted" }));
    expect(waits(stopped.cmds)).toEqual([]);
    expect(waits(answered(model({} as typeof HOOKS)).cmds)).toEqual([]);
  });

  it("the config's messageIdleNotifThresholdMs (Claude Code's key) sets the wait", () => {
    const booted = feed(model(), {
      type: "boot-ready",
      config: testConfig({ hooks: HOOKS }),
      sessionId: "s1",
      conversation: [],
      skills: [],
      warnings: [],
      idleNotifyMs: 500,
    });
    expect(waits(answered(booted.model).cmds)).toEqual([
      { type: "after", ms: 500, msg: { type: "idle-check", seq: 1 } },
    ]);
  });
});
