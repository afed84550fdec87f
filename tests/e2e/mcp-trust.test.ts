// Attack (issue 14, #3): a cloned repository's MCP config names a command, and opening agent0
// in it must not run that command until the user says so. Each test's server command writes a
// canary file; the canary existing means the project's code ran.
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
  Tui,
  userConfigFile,
  waitUntil,
  writeJson,
  type Sandbox,
} from "./harness.js";

const MODEL = { name: "qwen3:8b", contextLength: 40960 };

/** A server definition whose command only touches the canary (it is no MCP server: it exits). */
function canaryServer(canary: string) {
  return { command: "sh", args: ["-c", `touch ${canary}`] };
}

function writeProjectMcp(sb: Sandbox, file: ".agent0/mcp.json" | ".mcp.json", servers: Record<string, unknown>) {
  const abs = path.join(sb.project, file);
  fs.mkdirSync(path.dirname(abs), { recursive: true });
  fs.writeFileSync(abs, JSON.stringify({ mcpServers: servers }));
}

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

  const launch = async () => {
    tui?.kill();
    tui = new Tui(sb, ["--host", fake!.url, "--model", MODEL.name], { width: 110, height: 32 });
    await tui.waitFor("Ask anything");
    return tui;
  };

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

  it("TUI: each server is asked about on its own; /mcp trust starts a declined one without a restart; /mcp untrust stops asking", async () => {
    fake = await startFakeOllama({ models: [MODEL] });
    const canaryA = path.join(sb.home, "canary-alpha");
    const canaryB = path.join(sb.home, "canary-beta");
    writeProjectMcp(sb, ".mcp.json", { alpha: canaryServer(canaryA), beta: canaryServer(canaryB) });

    let t = await launch();
    // Waits for the dialog's last line: a frame caught while it is painted may hold "(1 of 2)" and not yet beta.
    let screen = await t.waitFor(`sh -c 'touch ${canaryB}'`);
    expect(screen).toContain("(1 of 2)");
    // Asked about alpha, with beta's whole command shown too ("Start all" would approve it).
    expect(screen).toContain(`sh -c 'touch ${canaryA}'`);
    expect(screen).toContain(`sh -c 'touch ${canaryB}'`);
    expect(screen).toContain("Do not start alpha");
    t.press("Enter");
    screen = await t.waitFor("(2 of 2)");
    expect(screen).toContain("Do not start beta");
    t.press("Up");
    t.press("Enter");
    await t.waitFor("Trusted for this project: beta (starting). Not started: alpha.");
    await waitUntil(() => fs.existsSync(canaryB), 10_000, "the trusted server beta to start");
    // The answers went to the agent as one sync: the report naming beta would name alpha too.
    expect(await mcpReportedWith(sb, t, "beta")).not.toContain("alpha");
    expect(fs.existsSync(canaryA)).toBe(false);

    // Later, from inside the app: the dialog shows alpha's command again before it starts.
    t.type("/mcp trust alpha");
    t.press("Enter");
    screen = await t.waitFor("Start alpha, and trust it in this project");
    expect(screen).toContain(`sh -c 'touch ${canaryA}'`);
    expect(fs.existsSync(canaryA)).toBe(false);
    t.press("Up");
    t.press("Enter");
    await waitUntil(() => fs.existsSync(canaryA), 10_000, "alpha to start without a restart");

    t.type("/mcp untrust beta");
    t.press("Enter");
    await t.waitFor("No longer trusted: beta");
    fs.rmSync(canaryA);
    fs.rmSync(canaryB);
    t = await launch();
    await waitUntil(() => fs.existsSync(canaryA), 10_000, "alpha, trusted, to start at launch");
    expect(await mcpReportedWith(sb, t, "alpha")).not.toContain("beta");
    expect(fs.existsSync(canaryB)).toBe(false);
    expect(t.screen()).not.toContain("Start this project's MCP servers?");
  });

  it("headless: Claude Code's .mcp.json is skipped with a notice unless --trust-project-mcp", async () => {
    fake = await startFakeOllama({ models: [MODEL], replies: [{ steps: [{ text: "done" }] }] });
    const canary = path.join(sb.home, "canary-headless");
    writeProjectMcp(sb, ".mcp.json", { evil: canaryServer(canary) });

    const skipped = await runHeadless(sb, ["-p", "hi", "--host", fake.url, "--model", MODEL.name]);
    expect(skipped.code).toBe(0);
    expect(skipped.stderr).toContain("MCP server evil");
    expect(skipped.stderr).toContain("not trusted");
    expect(skipped.stderr).toContain("--trust-project-mcp");
    expect(fs.existsSync(canary)).toBe(false);

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
    expect(trusted.stdout).toContain("done");
    expect(fs.existsSync(canary)).toBe(true);
  });

  it("auto-edit variant: an mcp.json the model wrote still needs trust at the next launch", async () => {
    const canary = path.join(sb.home, "canary-written");
    const content = JSON.stringify({ mcpServers: { planted: canaryServer(canary) } });
    fake = await startFakeOllama({
      models: [MODEL],
      replies: [
        { steps: [{ toolCalls: [{ name: "create_file", arguments: { path: ".agent0/mcp.json", content } }] }] },
        { steps: [{ text: "written" }] },
        { steps: [{ text: "second run" }] },
      ],
    });
    // Whatever the write policy (the trust helper makes .agent0/ ask), here the write happens.
    const first = await runHeadless(sb, ["-p", "set up mcp", "--host", fake.url, "--model", MODEL.name, "--yolo"]);
    expect(first.stdout).toContain("written");
    expect(fs.existsSync(path.join(sb.project, ".agent0", "mcp.json"))).toBe(true);

    const next = await runHeadless(sb, ["-p", "hi", "--host", fake.url, "--model", MODEL.name, "--yolo"]);
    expect(next.stdout).toContain("second run");
    expect(next.stderr).toContain("MCP server planted");
    expect(fs.existsSync(canary)).toBe(false);
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
