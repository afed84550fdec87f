// Agent Plugins in the running app (agent-plugins-spec spec/1.0.0.md): a person lists them with
// /plugins, trusts a project's, runs its skill, and turns one off. Attack: the cloned project's
// plugin has a server that writes a canary; it must not run before the user trusts the plugin and
// then the server. The user's own plugin's server, started by the same sync, writes its canary
// first: once it exists, the project's would have too.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { startFakeOllama, type FakeOllama } from "../fakes/ollama-server.js";
import { eachTest, runHeadless, Tui, waitUntil, type Sandbox } from "./harness.js";

const MODEL = { name: "qwen3:8b", contextLength: 40960 };
const PLUGIN_SCHEMA = "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json";
const MCP_SCHEMA = "https://agent-plugins.org/schemas/1.0.0/mcp.schema.json";

/** A plugin with one skill and one stdio "server" that only touches `canary` (and exits). */
function writePlugin(dir: string, name: string, canary: string): void {
  const files: Record<string, string> = {
    "plugin.json": JSON.stringify({ $schema: PLUGIN_SCHEMA, name, version: "1.0.0" }),
    [`skills/${name}-skill/SKILL.md`]: `---\nname: ${name}-skill\ndescription: the ${name} skill\n---\nDo as ${name} says: SKILL-BODY-${name}.`,
    "serve.sh": `#!/bin/sh\ntouch ${canary}\n`,
    "mcp.json": JSON.stringify({ $schema: MCP_SCHEMA, mcpServers: { srv: { type: "stdio", command: "./serve.sh" } } }),
  };
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), text, { mode: 0o755 });
  }
}

describe("Agent Plugins in the TUI", () => {
  let sb: Sandbox;
  let fake: FakeOllama | undefined;
  let tui: Tui | undefined;
  eachTest(
    (s) => (sb = s),
    () => [tui, fake],
  );

  it("a project's plugin runs nothing until trusted; /plugins lists, trusts and disables; its skill runs", async () => {
    fake = await startFakeOllama({ models: [MODEL] });
    const userCanary = path.join(sb.home, "CANARY-user");
    const projectCanary = path.join(sb.home, "CANARY-project");
    writePlugin(path.join(sb.home, ".agents", "plugins", "mine"), "mine", userCanary);
    writePlugin(path.join(sb.project, ".agents", "plugins", "evil"), "evil", projectCanary);

    tui = new Tui(sb, ["--host", fake.url, "--model", MODEL.name], { width: 120, height: 40 });
    const t = tui;
    // The whole dialog: a frame caught mid-paint holds only its first lines.
    const asked = await t.waitFor(/Trust this project's plugin\?[\s\S]*serve\.sh/);
    expect(asked).toContain("plugin:evil");
    expect(asked).toContain("skills: evil-skill");
    expect(asked).toContain("serve.sh");
    await waitUntil(() => fs.existsSync(userCanary), 10_000, "the user's own plugin server to start");
    expect(fs.existsSync(projectCanary)).toBe(false);

    // Enter takes the preselected "do not trust".
    t.press("Enter");
    await t.waitFor("Not started: plugin:evil");
    t.type("/plugins");
    t.press("Enter");
    let screen = await t.waitFor("evil 1.0.0 · this project's · enabled, not trusted");
    expect(screen).toContain("mine 1.0.0 · yours · enabled");
    expect(screen).toContain("skills: /mine-skill · MCP servers: plugin:mine:srv");
    expect(fs.existsSync(projectCanary)).toBe(false);

    // Trusted from inside the app: the plugin first, then its server on its own.
    t.type("/plugins trust evil");
    t.press("Enter");
    await t.waitFor("Trust plugin:evil in this project");
    t.press("Up", "Enter");
    await t.waitFor("Start this project's MCP servers?");
    expect(fs.existsSync(projectCanary)).toBe(false);
    t.press("Up", "Enter");
    await waitUntil(() => fs.existsSync(projectCanary), 10_000, "the trusted plugin's server to start");

    // Its skill is in the / menu and runs: its body goes to the model.
    // Typed whole (an Esc before more letters would read as Alt+letter): the menu shows it, Enter runs it.
    t.type("/evil-skill");
    screen = await t.waitFor("the evil skill");
    expect(screen).toContain("[plugin evil]");
    t.press("Enter");
    await fake.waitForChats(1, 20_000);
    expect(JSON.stringify(fake.chats[0]!.messages)).toContain("SKILL-BODY-evil");

    t.type("/plugins disable mine");
    t.press("Enter");
    await t.waitFor("Disabled plugin mine");
    const config = JSON.parse(fs.readFileSync(path.join(sb.env.XDG_CONFIG_HOME!, "agent0", "config.json"), "utf8"));
    expect(config.enabledPlugins).toEqual({ mine: false });
    t.type("/plugins");
    t.press("Enter");
    await t.waitFor("mine 1.0.0 · yours · disabled");
  });

  it("agent0 plugins install|list through the real binary: a hostile server is refused with the reason", async () => {
    const src = path.join(sb.home, "downloads", "sneaky");
    const canary = path.join(sb.home, "CANARY-install");
    writePlugin(src, "sneaky", canary);
    fs.writeFileSync(path.join(sb.home, "downloads", "evil.sh"), `#!/bin/sh\ntouch ${canary}\n`, { mode: 0o755 });
    fs.writeFileSync(
      path.join(src, "mcp.json"),
      JSON.stringify({ $schema: MCP_SCHEMA, mcpServers: { up: { type: "stdio", command: "./../evil.sh" } } }),
    );
    const installed = await runHeadless(sb, ["plugins", "install", src]);
    expect(installed.code).toBe(0);
    expect(installed.stdout).toContain(
      `Installed sneaky 1.0.0 in ${path.join(sb.home, ".agents", "plugins", "sneaky")}`,
    );
    expect(installed.stderr).toContain("mcpServers.up: command: ./../evil.sh leads out of the plugin's folder");
    const listed = await runHeadless(sb, ["plugins", "list"]);
    expect(listed.stdout).toContain("sneaky 1.0.0 · yours · enabled");
    expect(listed.stdout).toContain("! ");
    expect(listed.stdout).toContain("./../evil.sh leads out of the plugin's folder");
    expect(fs.existsSync(canary)).toBe(false);
  });

  it("headless: an untrusted project's plugin is named and skipped; its skill is not offered", async () => {
    fake = await startFakeOllama({ models: [MODEL], replies: [{ steps: [{ text: "done" }] }] });
    const projectCanary = path.join(sb.home, "CANARY-headless");
    writePlugin(path.join(sb.project, ".agents", "plugins", "evil"), "evil", projectCanary);
    const r = await runHeadless(sb, ["-p", "list your skills", "--host", fake.url, "--model", MODEL.name]);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain("Agent Plugin evil");
    expect(r.stderr).toContain("not trusted in this project");
    expect(JSON.stringify(fake.chats[0]!.messages)).not.toContain("evil-skill");
    expect(fs.existsSync(projectCanary)).toBe(false);
    // With the project trusted by flag, the same skill is offered: the line above could fail.
    fake.setReplies([{ steps: [{ text: "done" }] }]);
    const trusted = await runHeadless(sb, [
      "-p",
      "hi",
      "--host",
      fake.url,
      "--model",
      MODEL.name,
      "--trust-project-mcp",
    ]);
    expect(trusted.code).toBe(0);
    expect(JSON.stringify(fake.chats.at(-1)!.messages)).toContain("evil-skill");
  });
});
