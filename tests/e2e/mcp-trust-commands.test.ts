// Attack (issue 14, #3), continued from mcp-trust.test.ts: with two servers in a cloned
// repository's MCP config, each is asked about on its own; /mcp trust starts a declined one (its
// command shown first) without a restart, and /mcp untrust stops it starting. Each server's command
// writes a canary file; the canary existing means the project's code ran.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { startFakeOllama, type FakeOllama } from "../fakes/ollama-server.js";
import { eachTest, mcpReportedWith, type Tui, waitUntil, type Sandbox } from "./harness.js";
import { canaryServer, MODEL, relaunch, writeProjectMcp } from "./mcp-trust-setup.js";

describe("a project's own MCP servers need the user's trust", () => {
  let sb: Sandbox;
  let fake: FakeOllama | undefined;
  let tui: Tui | undefined;
  eachTest(
    (s) => (sb = s),
    () => [tui, fake],
  );

  const launch = () => relaunch(sb, fake!, tui, (t) => (tui = t));

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
});
