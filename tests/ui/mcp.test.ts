// MCP in the UI (pure update): the trust dialog, /mcp, prompts as slash commands, @server:uri.
import { describe, expect, it } from "vitest";
import type { McpServerView } from "../../src/protocol/mcp-state.js";
import type { Model } from "../../src/ui/model.js";
import { agent, feed, key, newModel, strip, typeText } from "./helpers.js";

const everything: McpServerView = {
  name: "everything",
  state: "running",
  transport: "stdio",
  trusted: false,
  pid: 42,
  tools: ["echo"],
  prompts: [
    {
      name: "args-prompt",
      description: "weather",
      arguments: [
        { name: "city", required: true },
        { name: "state", required: false },
      ],
    },
  ],
  resources: [{ uri: "demo://doc/architecture.md", name: "architecture.md" }],
  resourceTemplates: [],
};

function withServers(): Model {
  return feed(newModel(), agent({ type: "mcp-state", servers: [everything], runId: null })).model;
}

const workerCommands = (cmds: { type: string; command?: unknown }[]) =>
  cmds.flatMap((c) => (c.type === "worker" ? [c.command as { type: string }] : []));

describe("the MCP trust dialog", () => {
  const pending = [{ name: "evil", command: "sh -c 'touch x'", file: "/p/.agent0/mcp.json" }];
  const opened = (waiting = pending) =>
    feed(newModel({ height: 40 }), {
      type: "mcp-config",
      mcp: { servers: { mine: { command: "m" } }, pending: waiting, denied: [], trusted: [] },
      warnings: [],
    });
  const three = ["alpha", "beta", "gamma"].map((name) => ({ name, command: `${name}-server`, file: "/p/.mcp.json" }));

  it("syncs the trusted servers at once and asks about the project's, with 'do not start' preselected", () => {
    const { model, cmds } = opened();
    expect(workerCommands(cmds)).toEqual([{ type: "mcp-sync", servers: { mine: { command: "m" } }, cwd: "/project" }]);
    expect(model.dialog).toEqual({ kind: "mcp-trust", servers: pending, choice: "deny-one", decisions: [] });
  });

  it("typing never starts a server; Enter takes the selected choice; Up then Enter trusts; n declines", () => {
    const typed = feed(opened().model, ...typeText("yes y a"));
    expect(typed.model.dialog?.kind).toBe("mcp-trust");
    expect(typed.cmds).toEqual([]);
    const declined = feed(typed.model, key("enter"));
    expect(declined.model.dialog).toBeNull();
    expect(declined.cmds).toEqual([{ type: "mcp-trust", decisions: [{ name: "evil", decision: "deny" }] }]);
    const trusted = feed(opened().model, key("up"), key("enter"));
    expect(trusted.cmds).toEqual([{ type: "mcp-trust", decisions: [{ name: "evil", decision: "allow" }] }]);
    expect(feed(opened().model, key("escape")).cmds[0]).toMatchObject({ decisions: [{ decision: "deny" }] });
    // One set of keys for every question (issue 26): `n` says no here as in the permission dialog.
    const no = feed(opened().model, key("n"));
    expect(no.model.dialog).toBeNull();
    expect(no.cmds).toEqual([{ type: "mcp-trust", decisions: [{ name: "evil", decision: "deny" }] }]);
  });

  it("asks about each server in turn, 'do not start' preselected every time, and sends the answers together", () => {
    const first = feed(opened(three).model, key("up"), key("enter"));
    expect(first.cmds).toEqual([]);
    expect(first.model.dialog).toMatchObject({ servers: three.slice(1), choice: "deny-one" });
    const { model, cmds } = feed(first.model, key("enter"), key("up"), key("enter"));
    expect(model.dialog).toBeNull();
    expect(cmds).toEqual([
      {
        type: "mcp-trust",
        decisions: [
          { name: "alpha", decision: "allow" },
          { name: "beta", decision: "deny" },
          { name: "gamma", decision: "allow" },
        ],
      },
    ]);
    expect(model.entries.at(-1)).toMatchObject({
      text: expect.stringContaining("Trusted for this project: alpha, gamma"),
    });
  });

  it("'all' and 'none' answer every server still waiting; Esc is 'none'", () => {
    // Choices: this one, not this one, all, none (Down from "not this one" is "all").
    const all = feed(opened(three).model, key("enter"), key("down"), key("enter"));
    expect(all.cmds[0]).toEqual({
      type: "mcp-trust",
      decisions: [
        { name: "alpha", decision: "deny" },
        { name: "beta", decision: "allow" },
        { name: "gamma", decision: "allow" },
      ],
    });
    const none = feed(opened(three).model, key("up"), key("enter"), key("escape"));
    expect(none.cmds[0]).toMatchObject({
      decisions: [
        { name: "alpha", decision: "allow" },
        { name: "beta", decision: "deny" },
        { name: "gamma", decision: "deny" },
      ],
    });
  });

  it("shows the server asked about and every other one waiting, each with its whole command", async () => {
    const { view } = await import("../../src/ui/view/index.js");
    const screen = strip(view(opened(three).model).dialog!.lines.join("\n"));
    for (const s of three) expect(screen).toContain(`${s.command}`);
    expect(screen).toContain("(1 of 3)");
    expect(screen).toContain("› Do not start alpha");
    expect(screen).toContain("Start all 3, and trust them in this project");
  });

  it("/new reads the MCP config again (unchanged servers keep running in the worker)", () => {
    const { cmds } = feed(newModel(), ...typeText("/new"), key("enter"));
    expect(cmds.map((c) => c.type)).toEqual(["history-append", "new-session", "mcp-reload"]);
  });
});

describe("/mcp", () => {
  it("lists each server with state, counts and prompts; /mcp restart asks the worker", () => {
    const { model, cmds } = feed(
      withServers(),
      ...typeText("/mcp"),
      key("enter"),
      ...typeText("/mcp restart everything"),
      key("enter"),
    );
    const texts = model.entries.flatMap((e) => (e.kind === "notice" ? [e.text] : []));
    expect(texts).toContain(
      [
        "MCP servers (1):",
        "  everything — running (stdio, pid 42, 1 tool, 1 prompt, 1 resource): echo",
        "      prompts: /mcp__everything__args-prompt",
      ].join("\n"),
    );
    expect(workerCommands(cmds)).toEqual([{ type: "mcp-restart", name: "everything" }]);
  });
});

describe("/mcp trust and /mcp untrust", () => {
  const evil = { name: "evil", command: "sh -c 'touch x'", file: "/p/.agent0/mcp.json" };
  const configured = (denied = [evil], trusted: string[] = []) =>
    feed(withServers(), {
      type: "mcp-config",
      mcp: { servers: {}, pending: [], denied, trusted },
      warnings: [],
    }).model;
  const send = (model: Model, line: string) => feed(model, ...typeText(line), key("escape"), key("enter"));
  const lastText = (model: Model) => (model.entries.at(-1) as { text: string }).text;

  it("/mcp lists a declined project server with how to start it", () => {
    const { model } = send(configured(), "/mcp");
    expect(lastText(model)).toContain("  evil — not started (not trusted; /mcp trust evil starts it)");
  });

  it("a server left waiting (another dialog was open) can be asked about with /mcp trust", () => {
    // A picker is open when the config arrives: the trust dialog does not push it away.
    let model: Model = {
      ...withServers(),
      dialog: { kind: "picker", purpose: "model", title: "Models", items: [], selected: 0 },
    };
    model = feed(model, {
      type: "mcp-config",
      mcp: { servers: {}, pending: [evil], denied: [], trusted: [] },
      warnings: [],
    }).model;
    expect(lastText(model)).toContain("Not started (not trusted yet): evil. /mcp trust <name> asks.");
    model = feed(model, key("escape")).model;
    expect(send(model, "/mcp trust evil").model.dialog).toMatchObject({ kind: "mcp-trust", servers: [evil] });
  });

  it("/mcp trust opens the dialog on that server, whose command the user sees before agreeing", () => {
    const opened = send(configured(), "/mcp trust evil");
    expect(opened.model.dialog).toEqual({ kind: "mcp-trust", servers: [evil], choice: "deny-one", decisions: [] });
    const { cmds } = feed(opened.model, key("up"), key("enter"));
    expect(cmds).toEqual([{ type: "mcp-trust", decisions: [{ name: "evil", decision: "allow" }] }]);
  });

  it("the trusted server starts without a restart: the answer's server list goes to the worker", () => {
    const { cmds } = feed(configured(), {
      type: "mcp-config",
      mcp: { servers: { evil: { command: "sh" } }, pending: [], denied: [], trusted: ["evil"] },
      warnings: [],
    });
    expect(workerCommands(cmds)).toEqual([{ type: "mcp-sync", servers: { evil: { command: "sh" } }, cwd: "/project" }]);
  });

  it("/mcp untrust stops a trusted server and remembers the no", () => {
    const { model, cmds } = send(configured([], ["evil"]), "/mcp untrust evil");
    expect(cmds).toContainEqual({ type: "mcp-trust", decisions: [{ name: "evil", decision: "deny" }] });
    expect(lastText(model)).toContain("No longer trusted: evil");
  });

  it("names what it cannot do: no name, a user's own server, an unknown one", () => {
    expect(lastText(send(configured(), "/mcp trust").model)).toContain("Usage: /mcp trust <name>");
    expect(lastText(send(configured(), "/mcp untrust everything").model)).toContain("comes from your own config");
    const unknown = send(configured(), "/mcp trust nobody");
    expect(lastText(unknown.model)).toContain("No project MCP server named nobody");
    expect(unknown.cmds.filter((c) => c.type === "mcp-trust")).toEqual([]);
  });
});

describe("MCP prompts as slash commands", () => {
  it("are listed in the slash menu, completed with Tab and run with positional or name=value arguments", () => {
    const m = withServers();
    expect(m.commands).toContainEqual({
      name: "mcp__everything__args-prompt",
      description: expect.any(String),
      source: "mcp:everything",
      args: "<city> [state]",
    });
    const tab = feed(m, ...typeText("/mcp__every"), key("tab"));
    expect(tab.model.input.text).toBe("/mcp__everything__args-prompt ");
    const run = feed(m, ...typeText("/mcp__everything__args-prompt New York"), key("enter"));
    expect(workerCommands(run.cmds)).toEqual([
      {
        type: "mcp-expand",
        request: {
          typed: "/mcp__everything__args-prompt New York",
          text: "",
          prompt: { server: "everything", name: "args-prompt", args: { city: "New", state: "York" } },
          resources: [],
        },
      },
    ]);
    const named = feed(m, ...typeText("/everything:args-prompt state=NY city=Albany"), key("enter"));
    expect(workerCommands(named.cmds)[0]).toMatchObject({
      request: { prompt: { args: { city: "Albany", state: "NY" } } },
    });
  });

  it("say which required argument is missing instead of running", () => {
    // The first Enter takes the menu's item (it needs arguments, so it is completed, not run).
    const chosen = feed(withServers(), ...typeText("/mcp__everything__args-prompt"), key("enter"));
    expect(chosen.model.input.text).toBe("/mcp__everything__args-prompt ");
    const { model, cmds } = feed(chosen.model, key("enter"));
    expect(cmds.filter((c) => c.type !== "history-append")).toEqual([]);
    expect(model.entries.at(-1)).toMatchObject({ kind: "notice", level: "warn" });
    expect((model.entries.at(-1) as { text: string }).text).toContain("needs city");
  });

  it("the rendered prompt is sent as the user's turn, shown as typed", () => {
    const { model, cmds } = feed(
      withServers(),
      agent({
        type: "mcp-expanded",
        typed: "/mcp__everything__args-prompt Paris",
        content: "What's weather in Paris?",
        runId: null,
      }),
    );
    expect(model.conversation.at(-1)).toMatchObject({
      role: "user",
      content: "What's weather in Paris?",
      typed: "/mcp__everything__args-prompt Paris",
    });
    expect(cmds.map((c) => (c.type === "worker" ? c.command.type : c.type))).toContain("run");
  });
});

describe("images of an MCP prompt or resource", () => {
  const image = { mimeType: "image/png", data: "iVBORw0KGgo=" };
  const expanded = (seesImages: boolean) => {
    const m = feed(
      withServers(),
      agent({
        type: "model-info",
        model: "m",
        contextLength: 8192,
        numCtx: 8192,
        capabilities: seesImages ? ["vision"] : [],
        runId: null,
      }),
    ).model;
    return feed(
      m,
      agent({
        type: "mcp-expanded",
        typed: "/mcp__everything__look",
        content: "Look:\n[image: image/png, 8 bytes]",
        images: [image],
        runId: null,
      }),
    );
  };

  it("go with the user's turn to a model that reads images", () => {
    const { model, cmds } = expanded(true);
    expect(model.conversation.at(-1)).toMatchObject({ role: "user", images: [image] });
    expect(cmds).toContainEqual({ type: "session-append", message: expect.objectContaining({ images: [image] }) });
  });

  it("are left out (the text describes them) for one that does not", () => {
    expect(expanded(false).model.conversation.at(-1)!.images).toBeUndefined();
  });
});

describe("@server:uri", () => {
  it("in a line with @file mentions: the files are read first, then the worker adds the resource", () => {
    const line = "compare @src/a.ts with @everything:demo://doc/architecture.md";
    let { model, cmds } = feed(withServers(), ...typeText(line), key("escape"), key("enter"));
    expect(cmds).toContainEqual({ type: "read-mentions", text: line, mentions: ["src/a.ts"] });
    ({ model, cmds } = feed(model, {
      type: "mentions-read",
      text: line,
      content: `${line}\n\n<file path="src/a.ts">x</file>`,
      attached: ["src/a.ts"],
      problems: [],
    }));
    expect(model.run).toBeNull();
    expect(workerCommands(cmds)).toEqual([
      {
        type: "mcp-expand",
        request: {
          typed: line,
          text: `${line}\n\n<file path="src/a.ts">x</file>`,
          resources: [{ server: "everything", uri: "demo://doc/architecture.md" }],
        },
      },
    ]);
  });

  it("Tab completes a resource; sending asks the worker to read it first", () => {
    const m = withServers();
    const tab = feed(m, ...typeText("explain @everything:demo://doc/ar"), key("tab"));
    expect(tab.model.input.text).toBe("explain @everything:demo://doc/architecture.md ");
    const sent = feed(tab.model, key("enter"));
    expect(sent.model.run).toBeNull();
    expect(workerCommands(sent.cmds)).toEqual([
      {
        type: "mcp-expand",
        request: {
          // As typed, Tab's space included.
          typed: "explain @everything:demo://doc/architecture.md ",
          text: "explain @everything:demo://doc/architecture.md ",
          resources: [{ server: "everything", uri: "demo://doc/architecture.md" }],
        },
      },
    ]);
  });

  it("the @ menu offers resource templates by their fixed part, left open for the rest of the URI", () => {
    const templated: McpServerView = {
      ...everything,
      resourceTemplates: [{ uriTemplate: "demo://resource/dynamic/text/{resourceId}", name: "Dynamic Text Resource" }],
    };
    const m = feed(newModel(), agent({ type: "mcp-state", servers: [templated], runId: null })).model;
    expect(m.mentionItems).toContainEqual({
      value: "everything:demo://resource/dynamic/text/",
      detail: "demo://resource/dynamic/text/{resourceId} — Dynamic Text Resource",
      source: "mcp:everything",
      partial: true,
    });
    const chosen = feed(m, ...typeText("read @dynamic/te"), key("tab"));
    expect(chosen.model.input.text).toBe("read @everything:demo://resource/dynamic/text/");
    const sent = feed(chosen.model, ...typeText("3"), key("enter"));
    expect(workerCommands(sent.cmds)).toEqual([
      {
        type: "mcp-expand",
        request: expect.objectContaining({
          resources: [{ server: "everything", uri: "demo://resource/dynamic/text/3" }],
        }),
      },
    ]);
  });

  it("an @word that names no running server is read as a file, not sent to a server", () => {
    const { cmds } = feed(withServers(), ...typeText("mail @bob:later about it"), key("enter"));
    expect(cmds.map((c) => (c.type === "worker" ? c.command.type : c.type))).not.toContain("mcp-expand");
    expect(cmds).toContainEqual({ type: "read-mentions", text: "mail @bob:later about it", mentions: ["bob:later"] });
  });
});

describe("MCP progress", () => {
  it("shows the tool's progress in the status line", async () => {
    const { view } = await import("../../src/ui/view/index.js");
    let { model } = feed(newModel({ width: 120 }), ...typeText("go"), key("enter"));
    model = feed(
      model,
      agent({ type: "tool-start", id: "c1", name: "mcp__e__long", args: {}, label: "e.long {}" }),
      agent({ type: "tool-progress", id: "c1", progress: 3, total: 10 }),
    ).model;
    expect(view(model).status).toContain("e.long {} · 3/10");
  });
});
