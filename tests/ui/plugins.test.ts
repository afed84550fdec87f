// /plugins in the UI (pure update): the list with where each plugin comes from and what it brings,
// enable/disable as Cmds, a project's plugin trusted through the same dialog as its MCP servers,
// and the skills of an answer replacing the menu's.
import { describe, expect, it } from "vitest";
import type { McpConfigured } from "../../src/protocol/mcp-state.js";
import type { PluginView } from "../../src/protocol/plugins.js";
import type { Model } from "../../src/ui/model.js";
import { feed, key, newModel, typeText } from "./helpers.js";

const mine: PluginView = {
  name: "tudo",
  scope: "user",
  root: "/home/u/.agents/plugins/tudo",
  version: "0.1.3",
  description: "Three-tier tasklist",
  enabled: true,
  trust: "user",
  skills: ["tudo"],
  servers: ["plugin:tudo:tudo"],
  extensions: ["com.anthropic.claude-code"],
  warnings: [],
};
const theirs: PluginView = {
  name: "evil",
  scope: "project",
  root: "/p/.agents/plugins/evil",
  enabled: true,
  trust: "pending",
  skills: ["evil-skill"],
  servers: [],
  extensions: [],
  warnings: ["/p/.agents/plugins/evil/mcp.json: mcp.json is a link that leads out of the plugin's folder"],
};
const request = {
  kind: "plugin" as const,
  name: "plugin:evil",
  command: "skills: evil-skill",
  file: "/p/x/plugin.json",
};

function configured(plugins: PluginView[], extra: Partial<McpConfigured> = {}): Model {
  let model = newModel({ height: 40 });
  // The picker keeps the trust dialog from opening by itself: /plugins trust opens it.
  model = { ...model, dialog: { kind: "picker", purpose: "model", title: "Models", items: [], selected: 0 } };
  model = feed(model, {
    type: "mcp-config",
    mcp: { servers: {}, pending: [request], denied: [], trusted: [], plugins: { list: plugins, skills: [] }, ...extra },
    warnings: [],
  }).model;
  return feed(model, key("escape")).model;
}
const send = (model: Model, line: string) => feed(model, ...typeText(line), key("escape"), key("enter"));
const lastText = (model: Model) => (model.entries.at(-1) as { text: string }).text;

describe("/plugins", () => {
  it("lists each plugin: yours or the project's, its state, its folder, what it brings, what is not read", () => {
    const text = lastText(send(configured([mine, theirs]), "/plugins").model);
    expect(text).toContain("tudo 0.1.3 · yours · enabled");
    expect(text).toContain("/home/u/.agents/plugins/tudo");
    expect(text).toContain("skills: /tudo · MCP servers: plugin:tudo:tudo");
    expect(text).toContain("not read (other clients' extensions): com.anthropic.claude-code");
    expect(text).toContain("evil · this project's · enabled, not trusted yet (/plugins trust evil)");
    expect(text).toContain("! /p/.agents/plugins/evil/mcp.json: mcp.json is a link that leads out");
  });

  it("says where plugins go when there are none", () => {
    expect(lastText(send(configured([]), "/plugins").model)).toContain("No Agent Plugins found.");
  });

  it("enable and disable become a plugin-enable Cmd; an unknown name or no name is named", () => {
    expect(send(configured([mine]), "/plugins disable tudo").cmds).toContainEqual({
      type: "plugin-enable",
      name: "tudo",
      enabled: false,
    });
    expect(lastText(send(configured([mine]), "/plugins enable tudo").model)).toBe("tudo is enabled already.");
    expect(lastText(send(configured([mine]), "/plugins disable nope").model)).toContain("No plugin named nope");
    expect(lastText(send(configured([mine]), "/plugins disable").model)).toContain("Usage: /plugins disable <name>");
  });

  it("trust opens the project plugin's dialog, showing what it brings; untrust sends the no", () => {
    const opened = send(configured([theirs]), "/plugins trust evil");
    expect(opened.model.dialog).toEqual({ kind: "mcp-trust", servers: [request], choice: "deny-one", decisions: [] });
    expect(feed(opened.model, key("up"), key("enter")).cmds).toEqual([
      { type: "mcp-trust", decisions: [{ name: "plugin:evil", decision: "allow" }] },
    ]);
    const trusted = configured([{ ...theirs, trust: "trusted" }], { pending: [], trusted: ["plugin:evil"] });
    expect(send(trusted, "/plugins untrust evil").cmds).toContainEqual({
      type: "mcp-trust",
      decisions: [{ name: "plugin:evil", decision: "deny" }],
    });
    expect(lastText(send(configured([mine]), "/plugins trust tudo").model)).toContain("needs no trust");
  });

  it("an answer's skills replace the menu's and the plugins' SKILL.md files go with the next run", () => {
    const skill = {
      name: "evil-skill",
      description: "d",
      params: [],
      template: "t",
      source: "/s",
      format: "skill-md" as const,
    };
    const { model } = feed(newModel(), {
      type: "mcp-config",
      mcp: {
        servers: {},
        pending: [],
        denied: [],
        trusted: ["plugin:evil"],
        plugins: { list: [theirs], skills: [{ file: "/s", plugin: "evil", scope: "project" }] },
      },
      warnings: [],
      skills: [{ ...skill, plugin: "evil", scope: "project" }],
    });
    expect(model.skills.map((s) => s.name)).toEqual(["evil-skill"]);
    expect(model.commands.find((c) => c.name === "evil-skill")?.source).toBe("plugin evil");
    // Read again (a plugin disabled): the plugin's item goes, nothing is listed twice.
    const again = feed(model, {
      type: "mcp-config",
      mcp: { servers: {}, pending: [], denied: [], trusted: [] },
      warnings: [],
      skills: [],
    });
    expect(again.model.commands.filter((c) => c.name === "evil-skill")).toEqual([]);
    expect(model.config.pluginSkills).toEqual([{ file: "/s", plugin: "evil", scope: "project" }]);
  });
});
