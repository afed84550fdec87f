// MCP config in the shapes users have, ${ENV} expansion, and the trust store's rules.
import fs from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  describeMcpServer,
  expandMcpEnv,
  parseMcpServers,
  type McpServerSource,
} from "../../src/context/mcp-config.js";
import { lookupTrust, mcpTrustFile, recordTrust, selectMcpServers } from "../../src/context/mcp-trust.js";
import { tempDir } from "./helpers.js";

describe("parseMcpServers", () => {
  it("reads type stdio|http|sse (and other clients' spelling of Streamable HTTP), headers and timeouts", () => {
    const { servers, warnings } = parseMcpServers(
      "f.json",
      {
        a: { type: "stdio", command: "x", timeout: 5000, toolTimeout: 60000 },
        b: { type: "http", url: "http://h/mcp", headers: { Authorization: "Bearer ${TOKEN}" } },
        c: { type: "sse", url: "http://h/sse" },
        d: { type: "streamable-http", url: "http://h/mcp" },
        e: { type: "sse" },
        f: { type: "ws", url: "ws://h" },
        g: { command: "y", timeout: -1 },
      },
      "mcpServers",
    );
    expect(Object.keys(servers)).toEqual(["a", "b", "c", "d"]);
    expect(servers.a).toEqual({ type: "stdio", command: "x", timeout: 5000, toolTimeout: 60000 });
    expect(servers.d!.type).toBe("http");
    expect(warnings).toEqual([
      'f.json: mcpServers.e: type "sse" needs "url" — server skipped',
      expect.stringMatching(/^f\.json: mcpServers\.f\.type: .* — server skipped$/),
      expect.stringMatching(/^f\.json: mcpServers\.g\.timeout: .* — server skipped$/),
    ]);
  });
});

describe("expandMcpEnv", () => {
  it("expands ${VAR} and ${VAR:-default} in command, args, env, url and headers, and names what is missing", () => {
    const env = { TOKEN: "t0k", BIN: "/opt/bin" };
    const { config, warnings } = expandMcpEnv(
      "db",
      {
        command: "${BIN}/srv",
        args: ["--port", "${PORT:-5432}"],
        env: { KEY: "${TOKEN}" },
        url: "http://${HOST:-localhost}/mcp",
        headers: { Authorization: "Bearer ${TOKEN}", "X-Team": "${TEAM}" },
      },
      env,
    );
    expect(config).toEqual({
      command: "/opt/bin/srv",
      args: ["--port", "5432"],
      env: { KEY: "t0k" },
      url: "http://localhost/mcp",
      headers: { Authorization: "Bearer t0k", "X-Team": "" },
    });
    expect(warnings).toEqual(["MCP server db: ${TEAM} is not set (used as an empty string)"]);
  });

  it("describes a server as the command line the user approves", () => {
    expect(describeMcpServer({ command: "sh", args: ["-c", "touch /tmp/x; echo it's"] })).toBe(
      `sh -c 'touch /tmp/x; echo it'\\''s'`,
    );
    expect(describeMcpServer({ type: "sse", url: "http://h/sse" })).toBe("sse http://h/sse");
    // What goes with it is shown too, unexpanded: a secret sent to a project's server is visible.
    expect(describeMcpServer({ command: "srv", env: { KEY: "${AWS_SECRET_ACCESS_KEY}" } })).toBe(
      "KEY='${AWS_SECRET_ACCESS_KEY}' srv",
    );
    expect(
      describeMcpServer({ url: "https://x.example/mcp", headers: { Authorization: "Bearer ${GITHUB_TOKEN}" } }),
    ).toBe("http https://x.example/mcp -H 'Authorization: Bearer ${GITHUB_TOKEN}'");
  });
});

describe("the MCP trust store", () => {
  const source = (config: McpServerSource["config"], name = "evil"): McpServerSource => ({
    name,
    config,
    scope: "project",
    file: "/p/.agent0/mcp.json",
  });

  it("remembers a decision per project and per definition, in the config folder, readable only by the user", async () => {
    const dir = await tempDir();
    const project = join(dir, "project");
    const other = join(dir, "other");
    fs.mkdirSync(project);
    fs.mkdirSync(other);
    const file = mcpTrustFile(join(dir, "config"));
    const evil = source({ command: "sh", args: ["-c", "x"] });
    expect(lookupTrust(file, project, evil)).toBeUndefined();
    recordTrust(file, project, [{ source: evil, decision: "allow" }]);
    expect(lookupTrust(file, project, evil)).toBe("allow");
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    // Another project, or the same name with another command, asks again.
    expect(lookupTrust(file, other, evil)).toBeUndefined();
    expect(lookupTrust(file, project, source({ command: "sh", args: ["-c", "y"] }))).toBeUndefined();
    // A new timeout is not a new command.
    expect(lookupTrust(file, project, source({ command: "sh", args: ["-c", "x"], timeout: 9 }))).toBe("allow");
    recordTrust(file, project, [{ source: evil, decision: "deny" }]);
    expect(lookupTrust(file, project, evil)).toBe("deny");
  });

  it("starts the user's servers, and a project's only when allowed (replacing a user server of its name)", () => {
    const user: McpServerSource = { name: "db", config: { command: "mine" }, scope: "user", file: "/cfg" };
    const projectDb = source({ command: "theirs" }, "db");
    const pending = source({ command: "new" }, "new");
    const denied = source({ command: "no" }, "no");
    const decisions: Record<string, "allow" | "deny" | undefined> = { db: undefined, new: undefined, no: "deny" };
    const before = selectMcpServers([user, projectDb, pending, denied], (s) => decisions[s.name]);
    expect(before.run).toEqual({ db: { command: "mine" } });
    expect(before.pending.map((s) => s.name)).toEqual(["db", "new"]);
    expect(before.denied.map((s) => s.name)).toEqual(["no"]);
    decisions.db = "allow";
    expect(selectMcpServers([user, projectDb], (s) => decisions[s.name]).run).toEqual({ db: { command: "theirs" } });
  });
});
