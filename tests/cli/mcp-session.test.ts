// Trust per project server: each one's answer is its own, remembered per definition, and can be
// changed later (/mcp trust, /mcp untrust) — after which the servers to run say so at once.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createMcpSession } from "../../src/cli/mcp-session.js";
import { loadMcp } from "../../src/cli/startup.js";

let root: string;
let project: string;
let env: NodeJS.ProcessEnv;

beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "agent0-mcp-session-"));
  project = path.join(root, "project");
  fs.mkdirSync(path.join(project, ".agent0"), { recursive: true });
  env = { HOME: root, XDG_CONFIG_HOME: path.join(root, "config") };
  writeProject({ alpha: { command: "alpha-server" }, beta: { command: "beta-server", args: ["--port", "1"] } });
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

function writeProject(servers: Record<string, unknown>): void {
  fs.writeFileSync(path.join(project, ".agent0", "mcp.json"), JSON.stringify({ mcpServers: servers }));
}

function session() {
  return createMcpSession(loadMcp(project, {}, false, env).startup, { cwd: project, trustProject: false, env });
}

describe("per-server MCP trust", () => {
  it("each waiting server is named with its whole command and answered on its own", () => {
    const s = session();
    const first = s.configured().mcp;
    expect(first.servers).toEqual({});
    expect(first.pending.map((p) => [p.name, p.command])).toEqual([
      ["alpha", "alpha-server"],
      ["beta", "beta-server --port 1"],
    ]);
    const after = s.trust([
      { name: "alpha", decision: "allow" },
      { name: "beta", decision: "deny" },
    ]).mcp;
    expect(Object.keys(after.servers)).toEqual(["alpha"]);
    expect(after.trusted).toEqual(["alpha"]);
    expect(after.denied.map((d) => d.name)).toEqual(["beta"]);
    expect(after.pending).toEqual([]);
    // A new session (the next launch) remembers both answers.
    const again = session().configured().mcp;
    expect(Object.keys(again.servers)).toEqual(["alpha"]);
    expect(again.pending).toEqual([]);
  });

  it("a declined server is trusted later (/mcp trust) and a trusted one stopped (/mcp untrust)", () => {
    const s = session();
    s.trust([
      { name: "alpha", decision: "allow" },
      { name: "beta", decision: "deny" },
    ]);
    expect(Object.keys(s.trust([{ name: "beta", decision: "allow" }]).mcp.servers).sort()).toEqual(["alpha", "beta"]);
    const untrusted = s.trust([{ name: "alpha", decision: "deny" }]).mcp;
    expect(Object.keys(untrusted.servers)).toEqual(["beta"]);
    expect(untrusted.denied.map((d) => d.name)).toEqual(["alpha"]);
  });

  it("a changed definition asks again for that server only", () => {
    const s = session();
    s.trust([
      { name: "alpha", decision: "allow" },
      { name: "beta", decision: "allow" },
    ]);
    writeProject({ alpha: { command: "alpha-server" }, beta: { command: "beta-server", args: ["--port", "2"] } });
    const reloaded = s.reload().mcp;
    expect(Object.keys(reloaded.servers)).toEqual(["alpha"]);
    expect(reloaded.pending.map((p) => [p.name, p.command])).toEqual([["beta", "beta-server --port 2"]]);
  });

  it("a user's own server is not the project's to trust: its name changes nothing", () => {
    const s = session();
    const out = s.trust([{ name: "nonexistent", decision: "allow" }]).mcp;
    expect(out.servers).toEqual({});
    expect(out.pending).toHaveLength(2);
  });

  it("when the answer cannot be saved, this session still does what the user said, server by server", () => {
    const s = session();
    // The config folder is a file: nothing can be written under it.
    fs.writeFileSync(path.join(root, "config"), "not a folder");
    const first = s.trust([{ name: "alpha", decision: "allow" }]);
    expect(first.warnings[0]).toContain("Could not save the MCP trust decision");
    const second = s.trust([{ name: "beta", decision: "deny" }]).mcp;
    expect(Object.keys(second.servers)).toEqual(["alpha"]);
    expect(second.denied.map((d) => d.name)).toEqual(["beta"]);
  });
});
