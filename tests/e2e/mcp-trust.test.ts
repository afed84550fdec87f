// Attack (issue 14, #3): a cloned repository's MCP config names a command, and opening agent0
// in it must not run that command until the user says so. Each test's server command writes a
// canary file; the canary existing means the project's code ran. Here: the dialog at launch and
// `agent0 mcp list`; asking per server and /mcp trust|untrust are in mcp-trust-commands.test.ts,
// the headless runs (-p) in mcp-trust-headless.test.ts.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { startFakeOllama, type FakeOllama } from "../fakes/ollama-server.js";
import {
  eachTest,
  filesUnder,
  mcpReportedWith,
  ROOT,
  runHeadless,
  type Tui,
  userConfigFile,
  waitUntil,
  writeJson,
  type Sandbox,
} from "./harness.js";
import { canaryServer, MODEL, relaunch, writeProjectMcp } from "./mcp-trust-setup.js";

/**
 * The user's own server, started without asking. The agent reports every server of a sync at once
 * (an `mcp-state` event in the run log), so a report naming the witness is the moment a project
 * server the same sync was (wrongly) told to run would have been named too: the tests wait for it
 * instead of sleeping, then assert the project server was never named and its canary never made
 * (`mcpReportedWith`).
 */
const WITNESS = { command: "node", args: [path.join(ROOT, "tests", "fakes", "mcp-demo-server.mjs")] };

describe("a project's own MCP servers need the user's trust", () => {
  let sb: Sandbox;
  let fake: FakeOllama | undefined;
  let tui: Tui | undefined;
  eachTest(
    (s) => (sb = s),
    () => [tui, fake],
  );

  const launch = () => relaunch(sb, fake!, tui, (t) => (tui = t));

  it("TUI: the command does not run at launch; declining is remembered; approving runs it; a changed command asks again", async () => {
    fake = await startFakeOllama({ models: [MODEL] });
    const canary = path.join(sb.home, "canary-tui");
    writeProjectMcp(sb, ".agent0/mcp.json", { evil: canaryServer(canary) });
    writeJson(userConfigFile(sb), { mcpServers: { witness: WITNESS } });

    let t = await launch();
    const screen = await t.waitFor("Start this project's MCP servers?");
    // The dialog names the server, its file and its whole command.
    expect(screen).toContain("evil");
    expect(screen).toContain(`sh -c 'touch ${canary}'`);
    expect(screen).toContain(".agent0/mcp.json");
    // The launch's servers were started while the dialog waits: the project's was not among them.
    expect(await mcpReportedWith(sb, t, "witness")).not.toContain("evil");
    expect(fs.existsSync(canary)).toBe(false);
    // Typing does not answer it (a "y" in a word must not start anything); Enter takes the
    // preselected "Do not start".
    t.type("yes");
    t.press("Enter");
    await t.waitFor("Not started: evil");

    // Remembered in the user's config folder, never in the project.
    const store = path.join(sb.env.XDG_CONFIG_HOME!, "agent0", "mcp-trust.json");
    expect(fs.existsSync(store)).toBe(true);
    expect(filesUnder(sb.project).map((f) => path.relative(sb.project, f))).toEqual([path.join(".agent0", "mcp.json")]);

    // The next launch: its servers are started (the dialog would have opened before) without evil.
    t = await launch();
    expect(await mcpReportedWith(sb, t, "witness")).not.toContain("evil");
    expect(t.screen()).not.toContain("Start this project's MCP servers?");
    expect(fs.existsSync(canary)).toBe(false);

    // A changed definition asks again; this time the user approves.
    writeProjectMcp(sb, ".agent0/mcp.json", { evil: { ...canaryServer(canary), args: ["-c", `touch ${canary}; :`] } });
    t = await launch();
    await t.waitFor("Start this project's MCP servers?");
    expect(fs.existsSync(canary)).toBe(false);
    t.press("Up");
    t.press("Enter");
    await waitUntil(() => fs.existsSync(canary), 10_000, "the approved server's command to run");

    // Approved is remembered too: the next launch starts it without asking.
    fs.rmSync(canary);
    t = await launch();
    await waitUntil(() => fs.existsSync(canary), 10_000, "the trusted server to start at launch");
    expect(t.screen()).not.toContain("Start this project's MCP servers?");
  });
});

describe("agent0 mcp list", () => {
  let sb: Sandbox;
  eachTest((s) => (sb = s));

  it("prints each server, where it is defined, what it runs and whether it starts", async () => {
    const dir = path.join(sb.env.XDG_CONFIG_HOME!, "agent0");
    fs.writeFileSync(
      path.join(dir, "config.json"),
      JSON.stringify({ mcpServers: { mine: { command: "my-server", args: ["--ro"], trusted: true } } }),
    );
    writeProjectMcp(sb, ".mcp.json", { remote: { type: "http", url: "http://127.0.0.1:9/mcp" } });
    writeProjectMcp(sb, ".agent0/mcp.json", { evil: canaryServer("/tmp/never") });
    const r = await runHeadless(sb, ["mcp", "list"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(
      [
        `mine  (user config: ${path.join(dir, "config.json")})`,
        "  my-server --ro",
        "  starts: yes (your config); its tools run without asking",
        `remote  (project: ${path.join(sb.project, ".mcp.json")})`,
        "  http http://127.0.0.1:9/mcp",
        "  starts: not until you trust it (agent0 asks at launch; -p skips it unless --trust-project-mcp)",
        `evil  (project: ${path.join(sb.project, ".agent0", "mcp.json")})`,
        "  sh -c 'touch /tmp/never'",
        "  starts: not until you trust it (agent0 asks at launch; -p skips it unless --trust-project-mcp)",
        "",
      ].join("\n"),
    );
  });
});
