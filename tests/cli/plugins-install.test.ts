// `agent0 plugins install <path|git url>`: a real plugin (tests/fixtures/agent-plugins/SOURCES.md)
// copied from a folder and cloned from a git repository (file://, no network), read by the
// start-up rules first, so a plugin agent0 would reject is never put in ~/.agents/plugins.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { installPlugin, isGitSource, listPlugins } from "../../src/cli/plugins-install.js";
import { PLUGIN_SCHEMA_1_0 } from "../../src/context/plugin-manifest.js";

const FIXTURES = path.join(import.meta.dirname, "..", "fixtures", "agent-plugins");
let root: string;
let env: NodeJS.ProcessEnv;
const installed = () => fs.readdirSync(path.join(root, ".agents", "plugins"));

beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "agent0-plugins-install-"));
  env = {
    ...process.env,
    HOME: root,
    XDG_CONFIG_HOME: path.join(root, "config"),
    XDG_DATA_HOME: path.join(root, "data"),
  };
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

describe("agent0 plugins install", () => {
  it("copies a plugin's folder under its manifest name and says what it brings", async () => {
    const r = await installPlugin(path.join(FIXTURES, "tudo"), env, root);
    expect(r.code).toBe(0);
    expect(r.out).toEqual([
      `Installed tudo 0.1.3 in ${path.join(root, ".agents", "plugins", "tudo")}: skills: /tudo · MCP: plugin:tudo:tudo.`,
    ]);
    expect(installed()).toEqual(["tudo"]);
    expect(fs.readFileSync(path.join(root, ".agents/plugins/tudo/mcp.json"), "utf8")).toBe(
      fs.readFileSync(path.join(FIXTURES, "tudo", "mcp.json"), "utf8"),
    );
    // A second install of the same name is refused, the first kept.
    const again = await installPlugin(path.join(FIXTURES, "tudo"), env, root);
    expect(again).toMatchObject({ code: 1, err: [expect.stringContaining("is installed already")] });
    // And `plugins list` shows it as the app's /plugins does.
    const list = listPlugins(env, root);
    expect(list.out).toContain("tudo 0.1.3 · yours · enabled");
    expect(list.out).toContain("not read (other clients' extensions): com.anthropic.claude-code");
  });

  it("clones a git URL (no hooks, no submodules) and installs the plugin in it", async () => {
    const repo = path.join(root, "src-repo");
    fs.cpSync(path.join(FIXTURES, "agent-plugins"), repo, { recursive: true });
    const git = (...args: string[]) =>
      execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", "-c", "init.defaultBranch=main", ...args], {
        cwd: repo,
        env,
      });
    git("init", "-q");
    git("add", ".");
    git("commit", "-qm", "plugin");
    expect(isGitSource(`file://${repo}`)).toBe(true);
    const r = await installPlugin(`file://${repo}`, env, root);
    expect(r).toMatchObject({ code: 0, out: [expect.stringContaining("Installed agent-plugins 0.0.1")] });
    expect(installed()).toEqual(["agent-plugins"]);
    expect(fs.existsSync(path.join(root, ".agents/plugins/agent-plugins/skills/agent-plugins/SKILL.md"))).toBe(true);
  });

  it("refuses what start-up would reject, and leaves nothing behind", async () => {
    const notPlugin = await installPlugin(path.join(FIXTURES, "claude-plugin.json"), env, root);
    expect(notPlugin).toMatchObject({ code: 1, err: [expect.stringContaining("not a folder")] });
    const bad = path.join(root, "bad");
    fs.mkdirSync(bad);
    fs.writeFileSync(path.join(bad, "plugin.json"), JSON.stringify({ $schema: PLUGIN_SCHEMA_1_0, name: "../../.ssh" }));
    const r = await installPlugin(bad, env, root);
    expect(r).toMatchObject({ code: 1, err: [expect.stringContaining('name "../../.ssh" may hold only')] });
    const missing = await installPlugin("file:///nonexistent/repo", env, root);
    expect(missing).toMatchObject({ code: 1, err: [expect.stringContaining("Could not clone")] });
    expect(installed()).toEqual([]);
    expect(fs.existsSync(path.join(root, ".ssh"))).toBe(false);
  });
});
