import { describe, expect, test } from "vitest";
import { createCommands } from "../../../src/ui/runtime/commands.js";
import type { Services } from "../../../src/ui/runtime/services.js";
import type { Msg } from "../../../src/ui/msg.js";
import type { WorkerCommand } from "../../../src/protocol/worker-command.js";

function fakeServices(overrides: Partial<Services> = {}): Services {
  return {
    sessionId: () => "s1",
    appendMessage: () => {},
    resetSession: () => {},
    sessionMeta: () => {},
    newSession: () => "s2",
    openSession: () => ({ ok: false, error: "no such session" }),
    listSessions: () => ({ items: [], warnings: [] }),
    listModels: () => Promise.resolve([]),
    saveConfig: () => "saved",
    show: () => Promise.resolve("shown"),
    doctor: () => Promise.resolve("doctor"),
    undo: () => Promise.resolve({ ok: true, text: "undone" }),
    rewind: () => Promise.resolve({ ok: true, text: "rewound" }),
    exportMarkdown: () => Promise.resolve("exported"),
    sessionDiff: () => Promise.resolve([]),
    reviewDiff: () => Promise.resolve({ ok: false, error: "nothing to review" }),
    record: () => {},
    matchFiles: () => {},
    readMentions: (text) => Promise.resolve({ content: text, attached: [], problems: [] }),
    runShell: () => Promise.resolve({ output: "", exitCode: 0 }),
    appendHistory: () => {},
    acceptOffer: () => Promise.resolve({ ok: true }),
    cancelOffer: () => {},
    mcpTrust: () => ({ mcp: { servers: {}, pending: [], denied: [], trusted: [] }, warnings: [] }),
    mcpReload: () => ({ mcp: { servers: {}, pending: [], denied: [], trusted: [] }, warnings: [] }),
    setPluginEnabled: () =>
      Promise.resolve({ mcp: { servers: {}, pending: [], denied: [], trusted: [] }, warnings: [], text: "saved" }),
    addProjectRule: () => ({ mcp: { servers: {}, pending: [], denied: [], trusted: [] }, warnings: [], text: "saved" }),
    removeRule: () => ({ mcp: { servers: {}, pending: [], denied: [], trusted: [] }, warnings: [], text: "removed" }),
    runStamp: () => ({ sessionId: "s1", transcriptPath: "/tmp/s1.jsonl", checkpointDir: "/tmp/checkpoints" }),
    log: () => {},
    close: () => Promise.resolve(undefined),
    ...overrides,
  };
}

function harness(services: Services) {
  const msgs: Msg[] = [];
  const sent: WorkerCommand[] = [];
  const run = createCommands({
    services,
    send: (c) => sent.push(c),
    later: (m) => msgs.push(m),
    quit: () => {},
    withTerminal: (work) => work(),
  });
  // Lets the promise callbacks of asynchronous Cmds run.
  const settle = () => new Promise((r) => setTimeout(r, 0));
  return { msgs, sent, run, settle };
}

describe("the Cmd interpreter", () => {
  test("an undo whose promise rejects becomes an error notice, not a crash", async () => {
    const h = harness(fakeServices({ undo: () => Promise.reject(new Error("checkpoint folder is gone")) }));
    h.run({ type: "undo", force: false, sessionId: "s1", conversation: [], tokensUsed: 0 });
    await h.settle();
    expect(h.msgs).toEqual([{ type: "notice", level: "error", text: "Undo failed: checkpoint folder is gone" }]);
  });

  test("every asynchronous Cmd's rejection becomes a notice", async () => {
    const boom = () => Promise.reject(new Error("server down"));
    const h = harness(fakeServices({ listModels: boom, show: boom }));
    h.run({ type: "list-models" });
    h.run({ type: "show", what: "memory" });
    await h.settle();
    expect(h.msgs.map((m) => m.type === "notice" && m.level === "error" && m.text)).toEqual([
      "Listing the models failed: server down",
      "Showing memory failed: server down",
    ]);
  });

  test("a Cmd whose service throws becomes a notice", () => {
    const h = harness(
      fakeServices({
        saveConfig: () => {
          throw new Error("read-only file system");
        },
      }),
    );
    h.run({ type: "save-config", keys: { model: "m" } });
    expect(h.msgs).toEqual([
      { type: "notice", level: "error", text: "The save-config command failed: read-only file system" },
    ]);
  });

  test("a run is forwarded with the session's checkpoint folder; other worker commands as they are", () => {
    const h = harness(fakeServices());
    h.run({ type: "worker", command: { type: "cancel", runId: 1 } });
    const config = { model: "m" } as never;
    h.run({ type: "worker", command: { type: "run", runId: 3, conversation: [], config } as never });
    expect(h.sent[0]).toEqual({ type: "cancel", runId: 1 });
    expect(h.sent[1]).toMatchObject({
      type: "run",
      runId: 3,
      config: { model: "m", checkpointDir: "/tmp/checkpoints" },
    });
  });
});
