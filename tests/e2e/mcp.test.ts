import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startFakeOllama, type FakeOllama } from "../fakes/ollama-server.js";
import { ROOT, runHeadless, sandbox, Tui, type Sandbox, waitUntil } from "./harness.js";

const MODEL = { name: "qwen3:8b", contextLength: 40960 };
const DEMO_SERVER = path.join(ROOT, "tests", "fakes", "mcp-demo-server.mjs");

/** `process.kill(pid, 0)`: false once it throws ESRCH (no such process); any other error fails. */
function exists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ESRCH") throw err;
    return false;
  }
}

describe("MCP servers end to end", () => {
  let fake: FakeOllama | undefined;
  let sb: Sandbox;
  let tui: Tui | undefined;
  let serverPid: number | undefined;
  beforeEach(() => {
    sb = sandbox();
  });
  afterEach(async () => {
    tui?.kill();
    tui = undefined;
    // Never leave the demo server behind, even when the test failed before quitting.
    if (serverPid !== undefined && exists(serverPid)) process.kill(serverPid, "SIGKILL");
    serverPid = undefined;
    await fake?.close();
    fake = undefined;
    sb.cleanup();
  });

  it("offers mcp__demo__echo with its schema, asks, sends the result back, reports the broken server, and stops the server on quit", async () => {
    const pidFile = path.join(sb.home, "mcp-demo.pid");
    fs.mkdirSync(path.join(sb.project, ".agent0"));
    fs.writeFileSync(
      path.join(sb.project, ".agent0", "mcp.json"),
      JSON.stringify({
        mcpServers: {
          demo: { command: "node", args: [DEMO_SERVER], env: { MCP_DEMO_PID_FILE: pidFile } },
          broken: { command: "/nonexistent/cmd" },
        },
      }),
    );
    fake = await startFakeOllama({
      models: [MODEL],
      replies: [
        { steps: [{ toolCalls: [{ name: "mcp__demo__echo", arguments: { text: "hi from mcp" } }] }] },
        { steps: [{ text: "The server echoed it back." }] },
      ],
    });
    tui = new Tui(sb, ["--host", fake.url, "--model", MODEL.name], { width: 120, height: 40 });
    await tui.waitFor("Ask anything");
    // A project's own servers start once trusted: "Start all 2" (Down from the preselected "Do not start").
    await tui.waitFor("Start all 2, and trust them in this project");
    tui.press("Down");
    tui.press("Enter");

    // The broken server is named, with why it failed; the demo server runs.
    let screen = await tui.waitFor("MCP server broken failed to start");
    expect(screen).toContain("command not found: /nonexistent/cmd");
    await waitUntil(() => fs.existsSync(pidFile), 10_000, "the demo server's pid file");
    serverPid = Number(fs.readFileSync(pidFile, "utf8"));
    expect(exists(serverPid)).toBe(true);

    tui.type("echo something through mcp");
    tui.press("Enter");
    screen = await tui.waitFor("Allow mcp__demo__echo?");
    expect(screen).toContain("hi from mcp");
    tui.press("y");
    await tui.waitFor("The server echoed it back.");

    // The model was shown the tool with the server's own JSON schema.
    const first = fake.chats[0]!;
    const echo = (
      first.tools as {
        function: { name: string; parameters: { properties: Record<string, { type: string }>; required?: string[] } };
      }[]
    ).find((t) => t.function.name === "mcp__demo__echo");
    expect(echo).toBeDefined();
    expect(echo!.function.parameters.properties.text!.type).toBe("string");
    expect(echo!.function.parameters.required).toEqual(["text"]);
    // The tool's result went back to the model.
    const toolMessage = fake.chats[1]!.messages.filter((m) => m.role === "tool").at(-1)!;
    expect(toolMessage.tool_name).toBe("mcp__demo__echo");
    expect(toolMessage.content).toContain("hi from mcp");

    tui.type("/mcp");
    tui.press("Enter");
    screen = await tui.waitFor("MCP servers (2):");
    expect(screen).toMatch(/demo — running \(stdio, pid \d+, 7 tools, 0 prompts, 0 resources\): .*echo/);
    expect(screen).toContain("broken — failed: command not found: /nonexistent/cmd");

    tui.press("C-d");
    await tui.waitFor("[exit 0]");
    const pid = serverPid;
    await waitUntil(() => !exists(pid), 5_000, `the demo server (pid ${pid}) to be gone`);
  });

  it("a server marked trusted in the user config runs without asking, headless too, and is gone when agent0 exits", async () => {
    const pidFile = path.join(sb.home, "mcp-demo.pid");
    const configDir = path.join(sb.env.XDG_CONFIG_HOME!, "agent0");
    fs.mkdirSync(configDir, { recursive: true });
    fs.writeFileSync(
      path.join(configDir, "config.json"),
      JSON.stringify({
        mcpServers: {
          demo: { command: "node", args: [DEMO_SERVER], env: { MCP_DEMO_PID_FILE: pidFile }, trusted: true },
        },
      }),
    );
    fake = await startFakeOllama({
      models: [MODEL],
      replies: [
        { steps: [{ toolCalls: [{ name: "mcp__demo__add", arguments: { a: 2, b: 3 } }] }] },
        { steps: [{ text: "Two and three make five." }] },
      ],
    });
    // Headless with the default permission mode: a tool that asked would be refused.
    const r = await runHeadless(sb, ["-p", "add 2 and 3", "--host", fake.url, "--model", MODEL.name]);
    expect(r.stderr).not.toContain("MCP server");
    expect(r.stdout).toContain("Two and three make five.");
    expect(r.code).toBe(0);
    const toolMessage = fake.chats[1]!.messages.at(-1)!;
    expect(toolMessage).toMatchObject({ role: "tool", tool_name: "mcp__demo__add", content: "5" });
    serverPid = Number(fs.readFileSync(pidFile, "utf8"));
    const pid = serverPid;
    await waitUntil(() => !exists(pid), 5_000, `the demo server (pid ${pid}) to be gone`);
  });
});
