import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadConfig, saveConfigKeys } from "../../src/context/config.js";
import { listMcpServers } from "../../src/context/mcp-config.js";
import { configDir } from "../../src/context/dirs.js";
import { tempDir, writeTree } from "./helpers.js";

describe("configDir", () => {
  it("uses XDG_CONFIG_HOME, else ~/.config", () => {
    expect(configDir({ XDG_CONFIG_HOME: "/x/cfg", HOME: "/home/u" })).toBe("/x/cfg/agent0");
    expect(configDir({ HOME: "/home/u" })).toBe("/home/u/.config/agent0");
    expect(configDir({ XDG_CONFIG_HOME: "relative", HOME: "/home/u" })).toBe("/home/u/.config/agent0");
  });
});

describe("loadConfig", () => {
  it("fills the defaults when the file is missing, without a warning", async () => {
    const dir = await tempDir();
    const { config, warnings } = loadConfig(join(dir, "config.json"));
    expect(warnings).toEqual([]);
    expect(config).toEqual({ numCtxCap: 32768, tickMs: 100, maxSteps: 50, outputLimit: 32000, idleTimeoutMs: 120000 });
  });

  it("keeps the valid keys", async () => {
    const dir = await tempDir();
    const path = join(dir, "config.json");
    await writeFile(
      path,
      JSON.stringify({
        model: "qwen3",
        permissionMode: "auto-edit",
        numCtxCap: 16384,
        keepAlive: "5m",
      }),
    );
    const { config, warnings } = loadConfig(path);
    expect(warnings).toEqual([]);
    expect(config).toMatchObject({
      model: "qwen3",
      permissionMode: "auto-edit",
      numCtxCap: 16384,
      keepAlive: "5m",
      tickMs: 100,
    });
  });

  it("names the file and the key of an invalid value, uses that key's default and keeps the rest", async () => {
    const dir = await tempDir();
    const path = join(dir, "config.json");
    await writeFile(
      path,
      JSON.stringify({ model: "llama3", numCtxCap: "big", permissionMode: "sometimes", tickMs: 50 }),
    );
    const { config, warnings } = loadConfig(path);
    expect(warnings).toEqual([
      `${path}: numCtxCap: expected number, received string — using the default`,
      `${path}: permissionMode: expected one of "ask"|"auto-edit"|"plan"|"yolo" — using the default`,
    ]);
    expect(config.numCtxCap).toBe(32768);
    expect(config.permissionMode).toBeUndefined();
    expect(config.model).toBe("llama3");
    expect(config.tickMs).toBe(50);
  });

  it("names nested keys and unknown keys", async () => {
    const dir = await tempDir();
    const path = join(dir, "config.json");
    await writeFile(path, JSON.stringify({ webSearch: { backend: "bing" }, numctx: 4 }));
    const { warnings } = loadConfig(path);
    expect(warnings).toEqual([
      `${path}: webSearch.backend: expected one of "duckduckgo"|"searxng"|"ollama" — using the default`,
      `${path}: numctx: unknown key — ignored`,
    ]);
  });

  it("reports a file that is not JSON and uses the defaults", async () => {
    const dir = await tempDir();
    const path = join(dir, "config.json");
    await writeFile(path, "{ model: qwen");
    const { config, warnings } = loadConfig(path);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(
      new RegExp(`^${path.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}: not valid JSON \\(.+\\) — using the defaults$`),
    );
    expect(config.maxSteps).toBe(50);
  });

  it("skips only the broken MCP server", async () => {
    const dir = await tempDir();
    const path = join(dir, "config.json");
    await writeFile(
      path,
      JSON.stringify({ mcpServers: { good: { command: "srv", args: ["-v"] }, bad: { command: "x", args: "-v" } } }),
    );
    const { config, warnings } = loadConfig(path);
    expect(config.mcpServers).toEqual({ good: { command: "srv", args: ["-v"] } });
    expect(warnings).toEqual([`${path}: mcpServers.bad.args: expected array, received string — server skipped`]);
  });
});

describe("saveConfigKeys", () => {
  it("creates the folder, merges into what is there and keeps unknown keys", async () => {
    const dir = await tempDir();
    const path = join(dir, "nested", "agent0", "config.json");
    await saveConfigKeys(path, { model: "a" });
    await saveConfigKeys(path, { permissionMode: "yolo" });
    expect(JSON.parse(await readFile(path, "utf8"))).toEqual({ model: "a", permissionMode: "yolo" });
    expect(loadConfig(path).config).toMatchObject({ model: "a", permissionMode: "yolo" });
  });
});

describe("listMcpServers", () => {
  it("lists config servers, then .mcp.json and .agent0/mcp.json (the latter winning), project ones never trusted", async () => {
    const cwd = await tempDir();
    await writeTree(cwd, {
      ".mcp.json": JSON.stringify({
        mcpServers: { claude: { type: "sse", url: "http://127.0.0.1:9/sse" }, local: { command: "older" } },
      }),
      ".agent0/mcp.json": JSON.stringify({
        mcpServers: { shared: { url: "http://127.0.0.1:9/mcp", trusted: true }, local: { command: "tool" } },
      }),
    });
    const { servers, warnings } = listMcpServers(cwd, {
      file: "/cfg/config.json",
      servers: { shared: { command: "old" }, mine: { command: "m", trusted: true } },
    });
    expect(warnings).toEqual([]);
    expect(servers.map((s) => [s.name, s.scope, s.config])).toEqual([
      ["shared", "user", { command: "old" }],
      ["mine", "user", { command: "m", trusted: true }],
      ["claude", "project", { type: "sse", url: "http://127.0.0.1:9/sse" }],
      ["local", "project", { command: "tool" }],
      ["shared", "project", { url: "http://127.0.0.1:9/mcp" }],
    ]);
    expect(servers[3]!.file).toBe(join(cwd, ".agent0", "mcp.json"));
  });
});
