// `agent0 mcp list` says, per project server, what the user answered and how to change it.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, expect, it } from "vitest";
import { createMcpSession } from "../../src/cli/mcp-session.js";
import { printMcpList } from "../../src/cli/mcp-list.js";
import { loadMcp } from "../../src/cli/startup.js";

let root = "";
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

it("names each project server's answer and the /mcp command that changes it", () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "agent0-mcp-list-"));
  const project = path.join(root, "project");
  fs.mkdirSync(project);
  fs.writeFileSync(
    path.join(project, ".mcp.json"),
    JSON.stringify({ mcpServers: { yes: { command: "a" }, no: { command: "b" }, later: { command: "c" } } }),
  );
  const env = { HOME: root, XDG_CONFIG_HOME: path.join(root, "config") };
  createMcpSession(loadMcp(project, {}, false, env).startup, { cwd: project, trustProject: false, env }).trust([
    { name: "yes", decision: "allow" },
    { name: "no", decision: "deny" },
  ]);
  let out = "";
  printMcpList(project, env, (s) => (out += s));
  expect(out).toContain("starts: yes (you trusted it in this project; /mcp untrust yes stops it)");
  expect(out).toContain("starts: no (you declined it in this project; /mcp trust no in agent0 starts it)");
  expect(out).toContain("starts: not until you trust it");
});

it("lists the servers of the user's Agent Plugins, and a project's only once its plugin is trusted", () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "agent0-mcp-list-"));
  const project = path.join(root, "project");
  const write = (dir: string, name: string) => {
    fs.mkdirSync(dir, { recursive: true });
    const schema = (kind: string) => `https://agent-plugins.org/schemas/1.0.0/${kind}.schema.json`;
    fs.writeFileSync(path.join(dir, "plugin.json"), JSON.stringify({ $schema: schema("plugin"), name }));
    fs.writeFileSync(
      path.join(dir, "mcp.json"),
      JSON.stringify({ $schema: schema("mcp"), mcpServers: { srv: { type: "stdio", command: `${name}-server` } } }),
    );
  };
  write(path.join(root, ".agents", "plugins", "mine"), "mine");
  write(path.join(project, ".agents", "plugins", "theirs"), "theirs");
  const env = { HOME: root, XDG_CONFIG_HOME: path.join(root, "config"), XDG_DATA_HOME: path.join(root, "data") };
  let out = "";
  printMcpList(project, env, (s) => (out += s));
  expect(out).toContain("plugin:mine:srv  (your plugin mine:");
  expect(out).toContain("mine-server");
  expect(out).not.toContain("theirs-server");
  createMcpSession(loadMcp(project, {}, false, env).startup, { cwd: project, trustProject: false, env }).trust([
    { name: "plugin:theirs", decision: "allow" },
  ]);
  out = "";
  printMcpList(project, env, (s) => (out += s));
  expect(out).toContain("plugin:theirs:srv  (the project's plugin theirs:");
  expect(out).toContain("starts: not until you trust it");
});
