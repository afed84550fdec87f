import type { AgentEvent, RunEvent } from "../../src/protocol/agent-event.js";
import type { RunConfig } from "../../src/protocol/run-config.js";
import { testConfig as baseConfig } from "../tools/ctx.js";
import type { Model } from "../../src/ui/model.js";
import type { Cmd, Msg } from "../../src/ui/msg.js";
import { init, update } from "../../src/ui/update/index.js";

export function testConfig(over: Partial<RunConfig> = {}): RunConfig {
  return {
    ...baseConfig("/project"),
    model: "qwen3:8b",
    host: "http://127.0.0.1:11434",
    systemPrompt: "You are agent0.",
    // The golden frames' status line shows an 8k window.
    numCtx: 8192,
    idleTimeoutMs: 120000,
    interactive: true,
    dataDir: "/data",
    configDir: "/config",
    ...over,
  };
}

export function newModel(over: { width?: number; height?: number } = {}): Model {
  return init({ width: over.width ?? 80, height: over.height ?? 24, now: 1000, config: testConfig(), sessionId: "s1" });
}

/** An agent event as tests write it: without a run id, it belongs to the run going at the time. */
export type TestEvent = RunEvent & { runId?: number | null };
export type TestMsg = Msg | { type: "agent"; event: TestEvent };

/** Gives an agent event written without a run id the id of the model's current run. */
export function stamp(model: Model, msg: TestMsg): Msg {
  if (msg.type !== "agent" || msg.event.runId !== undefined) return msg as Msg;
  return { type: "agent", event: { ...msg.event, runId: model.run?.id ?? null } as AgentEvent };
}

/** Feeds messages through update, collecting every Cmd. */
export function feed(model: Model, ...msgs: TestMsg[]): { model: Model; cmds: Cmd[] } {
  const cmds: Cmd[] = [];
  let m = model;
  for (const msg of msgs) {
    const [next, c] = update(m, stamp(m, msg));
    m = next;
    cmds.push(...c);
  }
  return { model: m, cmds };
}

export const typeText = (text: string): Msg[] => [...text].map((ch) => ({ type: "key", key: { name: ch } }));
export const key = (name: string, mods: { ctrl?: boolean; meta?: boolean } = {}): Msg => ({
  type: "key",
  key: { name, ...mods },
});
export const agent = (event: TestEvent): TestMsg => ({ type: "agent", event });
/** A Cmd's kind, looking through the worker Cmd to the command it forwards. */
export const cmdKind = (c: Cmd): string => (c.type === "worker" ? c.command.type : c.type);
export const strip = (s: string) => s.replace(/\x1b\[[0-9;]*m/g, "");
