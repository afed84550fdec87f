import { describe, expect, it } from "vitest";
import type { Cmd, Msg } from "../../src/ui/msg.js";
import { init } from "../../src/ui/update/index.js";
import { menuRows } from "../../src/ui/layout/menu.js";
import { mentionAt } from "../../src/ui/layout/mentions.js";
import { Scorer, makeQuery, scorePath } from "../../src/search/fuzzy.js";
import { expandPastes } from "../../src/ui/update/paste.js";
import { entriesFromConversation } from "../../src/ui/update/transcript.js";
import { exitSummary } from "../../src/ui/summary.js";
import { view } from "../../src/ui/view/index.js";
import { agent, cmdKind, feed, key, newModel, strip, testConfig, typeText } from "./helpers.js";

const screen = (m: ReturnType<typeof newModel>) => {
  const f = view(m);
  return strip([...f.transcript, f.status, f.rule, ...f.input].join("\n"));
};
const shiftTab: Msg = { type: "key", key: { name: "tab", shift: true } };
const matched = (
  query: string,
  paths: string[],
  more: { total?: number; building?: boolean; ranking?: boolean } = {},
): Msg => ({
  type: "files-matched",
  matches: {
    type: "matches",
    query,
    paths,
    total: more.total ?? paths.length,
    indexed: 1000,
    building: more.building ?? false,
    ranking: more.ranking ?? false,
  },
});
const matchCmds = (cmds: Cmd[]) => cmds.filter((c) => c.type === "match-files");
const workerCmds = (cmds: Cmd[]) => cmds.flatMap((c) => (c.type === "worker" ? [c.command] : []));

describe("the slash menu", () => {
  it("opens on / and filters as you type; Tab completes; nothing is printed into the transcript", () => {
    const start = newModel();
    let { model } = feed(start, ...typeText("/co"));
    expect(menuRows(model).map((r) => r.label)).toEqual(["/context", "/compact", "/cost"]);
    expect(screen(model)).toMatch(/› \/context\s+show what the model was told/);
    ({ model } = feed(model, key("down"), key("tab")));
    expect(model.input.text).toBe("/compact ");
    expect(model.menu).toBeNull();
    expect(model.entries).toEqual(start.entries);
  });

  it("Enter runs the chosen command; Esc closes the menu until the input changes", () => {
    const { model: shown } = feed(newModel(), ...typeText("/cont"), key("enter"));
    const last = shown.entries.at(-1)!;
    expect(last.kind === "notice" && last.text).toContain("Context window:");
    let { model } = feed(newModel(), ...typeText("/co"), key("escape"));
    expect(model.menu).toBeNull();
    expect(model.run).toBeNull();
    ({ model } = feed(model, ...typeText("m")));
    expect(menuRows(model).map((r) => r.label)).toEqual(["/compact"]);
  });

  it("a /command recalled with Up does not open the menu, so Up goes on through the history", () => {
    const { model } = feed(newModel(), ...typeText("/compact"), key("enter"), ...typeText("hello"), key("enter"));
    const { model: after } = feed(model, agent({ type: "done", reason: "complete" }), key("up"), key("up"));
    expect(after.input.text).toBe("/compact");
    expect(after.menu).toBeNull();
  });

  it("/init asks the model to survey the project and write AGENTS.md", () => {
    const { model, cmds } = feed(newModel(), ...typeText("/init"), key("enter"));
    expect(model.conversation.at(-1)).toMatchObject({ role: "user", typed: "/init" });
    expect(model.conversation.at(-1)!.content).toContain("AGENTS.md");
    expect(workerCmds(cmds).map((c) => c.type)).toEqual(["run"]);
  });

  it("takes items of another source by Msg (MCP prompts), shown with their source", () => {
    let { model } = feed(newModel(), {
      type: "commands",
      source: "mcp:db",
      items: [{ name: "db-report", description: "A report of the database", source: "mcp:db", args: "[table]" }],
    });
    ({ model } = feed(model, ...typeText("/db")));
    expect(menuRows(model)).toMatchObject([{ label: "/db-report [table]", source: "mcp:db" }]);
    expect(screen(model)).toContain("[mcp:db]");
    // Boot replaces the skills' items but keeps other sources.
    ({ model } = feed(model, {
      type: "boot-ready",
      config: testConfig(),
      sessionId: "s2",
      conversation: [],
      skills: [],
      warnings: [],
    }));
    expect(model.commands.some((c) => c.source === "mcp:db")).toBe(true);
  });
});

describe("@ mentions", () => {
  it("find the token at the cursor, not inside an e-mail address", () => {
    expect(mentionAt("explain @src/de", 15)).toEqual({ query: "src/de", start: 8, end: 15 });
    expect(mentionAt("mail bob@host", 13)).toBeNull();
  });

  it("rank by path segments: prefixes of each segment first, deep paths after", () => {
    const files = ["src/deep/file.ts", "src/deep/", "src/other/fixtures.ts", "docs/src-deep-final.md", "src/"];
    const scorer = new Scorer();
    const q = makeQuery("src/deep/fi");
    const ranked = files
      .map((f) => ({ f, s: scorePath(scorer, f, q) }))
      .filter((x) => x.s !== null)
      .sort((a, b) => b.s! - a.s!)
      .map((x) => x.f);
    expect(ranked[0]).toBe("src/deep/file.ts");
    expect(ranked).not.toContain("src/");
    expect(scorePath(scorer, "src/ui/update/input.ts", makeQuery("upd/inp"))).not.toBeNull();
  });

  it("ask the file index as the query grows (a new @ refreshes it), and Tab completes the chosen one", () => {
    let { model, cmds } = feed(newModel(), ...typeText("explain @"));
    expect(matchCmds(cmds)).toEqual([{ type: "match-files", query: "", refresh: true }]);
    ({ model, cmds } = feed(
      model,
      matched("", ["README.md", "src/", "src/deep/", "src/deep/file.ts"]),
      ...typeText("src/deep/fi"),
    ));
    expect(matchCmds(cmds).map((c) => c.type === "match-files" && [c.query, c.refresh])).toEqual(
      [
        "s",
        "sr",
        "src",
        "src/",
        "src/d",
        "src/de",
        "src/dee",
        "src/deep",
        "src/deep/",
        "src/deep/f",
        "src/deep/fi",
      ].map((q) => [q, false]),
    );
    // The last answer is for "" still: its rows are narrowed here at once.
    expect(menuRows(model).map((r) => r.label)).toEqual(["@src/deep/file.ts"]);
    ({ model } = feed(model, key("tab")));
    expect(model.input.text).toBe("explain @src/deep/file.ts ");
    ({ model, cmds } = feed(model, key("enter")));
    expect(cmds).toContainEqual({
      type: "read-mentions",
      text: "explain @src/deep/file.ts ",
      mentions: ["src/deep/file.ts"],
    });
    expect(model.run).toBeNull();
    ({ model, cmds } = feed(model, {
      type: "mentions-read",
      text: "explain @src/deep/file.ts",
      content: "explain @src/deep/file.ts\n\n<attached …>",
      attached: ["src/deep/file.ts"],
      problems: [],
    }));
    expect(model.conversation.at(-1)).toEqual({
      role: "user",
      sentAt: 1000,
      content: "explain @src/deep/file.ts\n\n<attached …>",
      typed: "explain @src/deep/file.ts",
    });
    expect(screen(model)).toContain("(attached 1 file)");
    expect(workerCmds(cmds).map((c) => c.type)).toEqual(["run"]);
  });

  it("a folder completes to its path and the menu stays open for its files", () => {
    let { model } = feed(newModel(), ...typeText("@"), matched("", ["src/", "src/a.ts"]), ...typeText("sr"));
    ({ model } = feed(model, key("tab")));
    expect(model.input.text).toBe("@src/");
    expect(menuRows(model).map((r) => r.label)).toContain("@src/a.ts");
  });

  it("say under the menu how far the index has got, and how many paths match beyond those shown", () => {
    let { model } = feed(newModel(), ...typeText("@mod"), matched("mod", ["a/mod.ts"], { building: true }));
    expect(screen(model)).toContain("@a/mod.ts");
    expect(screen(model)).toContain("indexing… 1,000 paths so far");
    // A pass over very many paths shows its best so far first (file-index.ts), then the full answer.
    ({ model } = feed(model, matched("mod", ["a/mod.ts", "b/mod.ts"], { total: 9_000, ranking: true })));
    expect(screen(model)).toContain("ranking… best of 9,000 matches so far");
    ({ model } = feed(model, matched("mod", ["a/mod.ts", "b/mod.ts"], { total: 48_112 })));
    expect(screen(model)).toContain("2 of 48,112 matches; type more to narrow");
    ({ model } = feed(model, key("escape")));
    expect(screen(model)).not.toContain("matches");
  });
});

describe("modes", () => {
  it("Shift+Tab cycles ask → auto-edit → plan → ask, saved as session meta", () => {
    const first = feed(newModel(), shiftTab);
    let model = first.model;
    expect(model.config.permissionMode).toBe("auto-edit");
    const cmds = first.cmds;
    expect(cmds).toEqual([{ type: "session-meta", fields: { permissionMode: "auto-edit" } }]);
    ({ model } = feed(model, shiftTab));
    expect(model.config.permissionMode).toBe("plan");
    expect(screen(model)).toContain("── plan mode: read-only");
    ({ model } = feed(model, shiftTab));
    expect(model.config.permissionMode).toBe("ask");
  });

  it("yolo joins the cycle only when the app started in it; a running worker is told", () => {
    const yolo = init({
      width: 80,
      height: 24,
      now: 0,
      config: testConfig({ permissionMode: "yolo" }),
      sessionId: "s",
    });
    let { model } = feed(yolo, shiftTab, shiftTab, shiftTab);
    expect(model.config.permissionMode).toBe("plan");
    ({ model } = feed(model, shiftTab));
    expect(model.config.permissionMode).toBe("yolo");
    const { cmds } = feed(newModel(), ...typeText("go"), key("enter"), shiftTab);
    expect(workerCmds(cmds).at(-1)).toEqual({ type: "set-mode", runId: 1, mode: "auto-edit" });
  });

  it("a plan answered in plan mode is carried out with y: auto-edit, then 'Carry out the plan.'", () => {
    let { model } = feed(newModel(), shiftTab, shiftTab, ...typeText("plan it"), key("enter"));
    ({ model } = feed(
      model,
      agent({ type: "message", message: { role: "assistant", content: "1. do a\n2. do b" } }),
      agent({ type: "done", reason: "complete" }),
    ));
    expect(model.planReady).toBe(true);
    expect(screen(model)).toContain("Plan ready. y/Enter switch to auto-edit and carry it out · n/Esc keep planning");
    const { model: after, cmds } = feed(model, key("y"));
    expect(after.config.permissionMode).toBe("auto-edit");
    const run = workerCmds(cmds).find((c) => c.type === "run");
    expect(run?.type === "run" && run.conversation.at(-1)).toEqual({
      role: "user",
      content: "Carry out the plan.",
      sentAt: 1000,
    });
    expect(run?.type === "run" && run.config.permissionMode).toBe("auto-edit");
    // n keeps planning; typing closes the prompt and types as usual.
    expect(feed(model, key("n")).model.planReady).toBe(false);
    const typed = feed(model, key("w")).model;
    expect([typed.planReady, typed.input.text]).toEqual([false, "w"]);
  });
});

describe("todo list", () => {
  const todos = [
    { content: "Read", status: "completed" },
    { content: "Fix", status: "in_progress" },
    { content: "Test", status: "pending" },
  ];
  it("a todo_write call is pinned above the input while the run goes, and entered in the transcript", () => {
    let { model } = feed(newModel({ height: 30 }), ...typeText("go"), key("enter"));
    ({ model } = feed(
      model,
      agent({ type: "tool-start", id: "t1", name: "todo_write", args: { todos }, label: "update the todo list" }),
    ));
    expect(model.todos).toEqual(todos);
    const lines = view(model).transcript.map(strip);
    expect(lines.slice(-3)).toEqual([" ✓ Read", " ▸ Fix", " ☐ Test"]);
    expect(lines.filter((l) => l.includes("▸ Fix"))).toHaveLength(2);
    ({ model } = feed(model, agent({ type: "done", reason: "complete" })));
    expect(
      view(model)
        .transcript.map(strip)
        .filter((l) => l.includes("▸ Fix")),
    ).toHaveLength(1);
  });

  it("comes back from the conversation on resume", () => {
    const conversation = [
      { role: "user" as const, content: "go" },
      { role: "assistant" as const, content: "", toolCalls: [{ id: "t1", name: "todo_write", args: { todos } }] },
      { role: "tool" as const, content: "Todo list updated", toolCallId: "t1", toolName: "todo_write" },
    ];
    const m = init({ width: 80, height: 24, now: 0, config: testConfig(), sessionId: "s", conversation });
    expect(m.todos).toEqual(todos);
    expect(entriesFromConversation(conversation, 1).entries.map((e) => e.kind)).toEqual(["user", "todos", "tool"]);
  });
});

describe("! shell", () => {
  it("runs the user's command without a model call and adds its output as context", () => {
    let { model, cmds } = feed(newModel(), ...typeText("!echo hi"));
    expect(screen(model)).toContain("! shell mode");
    ({ model, cmds } = feed(model, key("enter")));
    expect(cmds.filter((c) => c.type !== "history-append")).toEqual([{ type: "shell", command: "echo hi" }]);
    expect(feed(model, key("escape")).cmds).toEqual([{ type: "shell-cancel" }]);
    ({ model, cmds } = feed(model, { type: "shell-done", command: "echo hi", output: "hi\n", exitCode: 0 }));
    expect(workerCmds(cmds)).toEqual([]);
    expect(model.conversation.at(-1)).toMatchObject({ role: "user", typed: "!echo hi" });
    expect(model.conversation.at(-1)!.content).toContain("$ echo hi\nhi\n");
    expect(screen(model)).toMatch(/! echo hi\n\s+hi/);
    // Rebuilt the same way on resume.
    expect(entriesFromConversation(model.conversation, 1).entries[0]).toMatchObject({
      kind: "shell",
      command: "echo hi",
      exitCode: 0,
    });
  });

  it("a prompt sent while the command runs waits for its output", () => {
    let { model, cmds } = feed(newModel(), ...typeText("!sleep 1"), key("enter"), ...typeText("and?"), key("enter"));
    expect(workerCmds(cmds)).toEqual([]);
    ({ model, cmds } = feed(model, { type: "shell-done", command: "sleep 1", output: "", exitCode: 0 }));
    const run = workerCmds(cmds).find((c) => c.type === "run");
    expect(run?.type === "run" && run.conversation.map((m) => m.typed ?? m.content)).toEqual(["!sleep 1", "and?"]);
  });
});

describe("history, pastes, attention, summary", () => {
  it("saved history comes before this launch's; Ctrl+R finds older matches; Esc goes back", () => {
    let { model } = feed(newModel(), ...typeText("draft"), {
      type: "boot-ready",
      config: testConfig(),
      sessionId: "s",
      conversation: [],
      skills: [],
      warnings: [],
      history: ["fix the parser", "run tests", "fix the lexer"],
    });
    ({ model } = feed(model, key("r", { ctrl: true }), ...typeText("fix")));
    expect(screen(model)).toContain("(history search) fix → fix the lexer");
    ({ model } = feed(model, key("r", { ctrl: true })));
    expect(model.historySearch?.index).toBe(0);
    expect(feed(model, key("escape")).model.input.text).toBe("draft");
    ({ model } = feed(model, key("enter")));
    expect(model.input.text).toBe("fix the parser");
    expect(model.run).toBeNull();
  });

  it("a large paste collapses to one placeholder and is sent whole; Ctrl+E expands it", () => {
    const text = Array.from({ length: 200 }, (_, i) => `line ${i}`).join("\n");
    let { model, cmds } = feed(newModel(), { type: "paste", text });
    expect(model.input.text).toBe("[Pasted text #1 +200 lines]");
    expect(feed(model, key("e", { ctrl: true })).model.input.text).toBe(text);
    ({ model, cmds } = feed(model, key("enter")));
    const run = workerCmds(cmds).find((c) => c.type === "run");
    expect(run?.type === "run" && run.conversation.at(-1)!.content).toBe(text);
    expect(expandPastes("a [Pasted text #2 +3 lines] b", ["x", "y\ny\ny"])).toBe("a y\ny\ny b");
  });

  it("rings only when the terminal is not focused, as configured", () => {
    const run = (focused: boolean) =>
      feed(
        newModel(),
        { type: "focus", focused },
        ...typeText("go"),
        key("enter"),
        agent({ type: "done", reason: "complete" }),
      ).cmds.filter((c) => c.type === "notify");
    expect(run(true)).toEqual([]);
    expect(run(false)).toEqual([{ type: "notify", mode: "bell", text: "agent0: the answer is ready" }]);
  });

  it("the exit summary counts turns, tool calls, tokens and time", () => {
    let { model } = feed(newModel(), ...typeText("go"), key("enter"));
    ({ model } = feed(
      model,
      agent({ type: "tool-start", id: "a", name: "read_file", args: {}, label: "read a" }),
      agent({ type: "usage", promptTokens: 1500, completionTokens: 40, contextWindow: 8192 }),
      agent({ type: "usage", promptTokens: 1600, completionTokens: 60, contextWindow: 8192 }),
    ));
    expect(exitSummary(model.stats, model.stats.startedAt + 65_000)).toBe(
      "1 turn · 1 tool call · tokens 3.1k in / 100 out · 1m 05s",
    );
    expect(cmdKind({ type: "history-append", text: "x" })).toBe("history-append");
  });
});

describe("the attention sequence", () => {
  it("is a bell, or an OSC 9 whose text cannot end it early (attack: a tool name with ESC/BEL)", async () => {
    const { attentionSequence } = await import("../../src/ui/runtime/steer-cmds.js");
    expect(attentionSequence("bell", "x")).toBe("\x07");
    const seq = attentionSequence("osc9", "agent0: allow evil\x07\x1b]52;c;Y2FuYXJ5\x07?");
    expect(seq.startsWith("\x1b]9;")).toBe(true);
    expect(seq.endsWith("\x07")).toBe(true);
    // Exactly one terminator and one ESC: the text stays inside the notification.
    expect(seq.split("\x07")).toHaveLength(2);
    expect(seq.split("\x1b")).toHaveLength(2);
  });
});

describe("a queued message", () => {
  it("with an @mention gets its files read when it is sent", () => {
    let { model, cmds } = feed(newModel(), ...typeText("first"), key("enter"), ...typeText("then @a.ts"), key("enter"));
    expect(model.queued).toEqual(["then @a.ts"]);
    ({ model, cmds } = feed(model, agent({ type: "done", reason: "complete" })));
    expect(cmds).toContainEqual({ type: "read-mentions", text: "then @a.ts", mentions: ["a.ts"] });
    expect(model.attaching).toBe("then @a.ts");
  });
});
