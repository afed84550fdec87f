import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { startFakeOllama, type FakeOllama } from "../fakes/ollama-server.js";
import { Tui, type Sandbox, eachTest, waitUntil, writeJson, userConfigFile } from "./harness.js";

const MODEL = { name: "qwen3:8b", contextLength: 40960 };

/** The status line: the row above the input box's rule. */
function statusRow(screen: string): string {
  const rows = screen.split("\n");
  const rule = rows.findIndex((r) => r.startsWith("──"));
  return rows[rule - 1] ?? "";
}

// Claude Code's statusLine (code.claude.com/docs/en/statusline): {"type": "command", "command": ...};
// the JSON session data on stdin, the first line of stdout shown.
describe("statusLine.command end to end", () => {
  let fake: FakeOllama | undefined;
  let sb: Sandbox;
  let tui: Tui | undefined;
  eachTest(
    (s) => (sb = s),
    () => [tui, fake],
  );
  const configFile = () => userConfigFile(sb);

  it("shows the command's first line in the status line, fed Claude Code's JSON", async () => {
    const seen = path.join(sb.home, "status-input.json");
    // The escape that clears the screen must come out inert; the colour stays.
    writeJson(configFile(), {
      statusLine: {
        type: "command",
        command: `cat > ${seen}; printf '\\033[2J\\033[32mbranch:main\\033[0m ctx:42%%\\nsecond line\\n'`,
      },
    });
    fake = await startFakeOllama({ models: [MODEL] });
    tui = await Tui.open(sb, ["--host", fake.url, "--model", MODEL.name]);
    const screen = await tui.waitFor("branch:main ctx:42%");
    const row = statusRow(screen);
    expect(row).toMatch(/^idle · .*branch:main ctx:42%$/);
    // It stands in for the model and context figures; "second line" is never shown.
    expect(row).not.toContain("qwen3:8b");
    expect(screen).not.toContain("second line");
    expect(screen).toContain("Ask anything"); // the screen was not cleared
    expect(tui.screenAnsi()).toMatch(/\x1b\[32mbranch:main/);
    const input = JSON.parse(fs.readFileSync(seen, "utf8")) as Record<string, unknown>;
    expect(input).toMatchObject({
      hook_event_name: "Status",
      cwd: sb.project,
      model: { id: MODEL.name, display_name: MODEL.name },
      workspace: { current_dir: sb.project, project_dir: sb.project },
      cost: { total_cost_usd: 0 },
    });
    expect(input.session_id).toMatch(/\S/);
    expect(input.transcript_path).toMatch(/\.jsonl$/);
    expect(input.version).toMatch(/^\d+\.\d+\.\d+/);
  });

  it("a failing command leaves the usual status line, with one notice", async () => {
    const runs = path.join(sb.home, "runs");
    writeJson(configFile(), { statusLine: { type: "command", command: `echo x >> ${runs}; echo broken; exit 3` } });
    fake = await startFakeOllama({
      models: [MODEL],
      replies: [{ steps: [{ text: "First." }] }, { steps: [{ text: "Second." }] }],
    });
    tui = new Tui(sb, ["--host", fake.url, "--model", MODEL.name]);
    await tui.waitFor("The status line command failed (exit code 3)");
    tui.send("hello");
    await tui.waitFor("First.");
    // The state changed: the command ran again, and failed again, silently.
    await waitUntil(() => fs.readFileSync(runs, "utf8").split("\n").length > 2, 10_000, "a second run");
    // A whole turn later (a run through the agent and the server), that failure has long been
    // taken; the later ones are the same (one notice per launch is tests/ui/status-line.test.ts's).
    tui.send("again");
    let screen = await tui.waitFor("Second.");
    screen = await tui.waitFor(/^idle · /m);
    expect(screen.match(/The status line command failed/g)).toHaveLength(1);
    expect(statusRow(screen)).toMatch(/^idle · qwen3:8b · /);
    expect(screen).not.toContain("broken");
  });

  it("a project's status line runs only once the project is trusted", async () => {
    const canary = path.join(sb.home, "project-status-ran");
    // The user's own status line: the one in effect while the project's is not trusted. Once it
    // shows, the project's command would have run before it (one at a time) had it been in effect.
    writeJson(configFile(), { statusLine: { type: "command", command: "echo user-line" } });
    writeJson(path.join(sb.project, ".claude", "settings.json"), {
      statusLine: { type: "command", command: `touch ${canary}; echo project-line` },
    });
    fake = await startFakeOllama({ models: [MODEL] });
    tui = new Tui(sb, ["--host", fake.url, "--model", MODEL.name], { width: 110, height: 32 });
    const dialog = await tui.waitFor("Trust this project's hooks and rules?");
    expect(dialog).toContain(`status line: touch ${canary}; echo project-line`);
    tui.press("Enter"); // "Do not trust" is preselected
    await tui.waitFor("Not started: settings:.claude/settings.json");
    await waitUntil(() => statusRow(tui!.screen()).endsWith("user-line"), 10_000, "the user's status line");
    expect(fs.existsSync(canary)).toBe(false);
    tui.send("/mcp trust settings:.claude/settings.json");
    await tui.waitFor("Trust this project's hooks and rules?");
    tui.press("Up");
    tui.press("Enter");
    await tui.waitFor("Trusted for this project: settings:.claude/settings.json");
    await waitUntil(() => statusRow(tui!.screen()).endsWith("project-line"), 10_000, "the project's status line");
    expect(fs.existsSync(canary)).toBe(true);
  });
});

// The context meter (issue 26, "right under the fingers"): whole at 80 columns in the two states
// that squeeze the status line — scrolled up while an answer streams, and under an approval.
const METER_MODEL = { name: "qwen3:8b", contextLength: 8192, capabilities: ["completion", "tools", "thinking"] };

describe("the context meter", () => {
  let fake: FakeOllama | undefined;
  let sb: Sandbox;
  let tui: Tui | undefined;
  eachTest(
    (s) => (sb = s),
    () => [tui, fake],
  );

  it("the context meter is whole at 80 columns while running scrolled up, and during an approval", async () => {
    // A screen and more at once, then the rest slowly: the view is scrolled up while it still streams.
    const long = Array.from({ length: 60 }, (_, i) => ({
      text: `Paragraph ${i} of the answer.\n\n`,
      delayMs: i < 20 ? 0 : 40,
    }));
    fake = await startFakeOllama({
      models: [METER_MODEL],
      replies: [
        { steps: long },
        { steps: [{ toolCalls: [{ name: "write_file", arguments: { path: "a.txt", content: "hello\n" } }] }] },
        { steps: [{ text: "Created." }] },
      ],
    });
    tui = new Tui(sb, ["--host", fake.url, "--model", METER_MODEL.name], { width: 80, height: 24 });
    await tui.waitFor("Ask anything");
    tui.type("tell me a lot");
    tui.press("Enter");
    await tui.waitFor("Paragraph 19");
    tui.press("PageUp");
    let screen = await tui.waitFor(/↓ \d+ new/);
    const status = screen.split("\n").find((l) => l.includes("↓"))!;
    expect(status).toMatch(/▱* ?\d+(\.\d)?k? of 8\.2k \(\d+%\)/);
    await tui.waitFor("idle", 20_000);
    tui.press("End");
    tui.type("make a.txt");
    tui.press("Enter");
    screen = await tui.waitFor("Allow write_file?");
    const lines = screen.split("\n");
    const statusRow = lines.findIndex((l) => l.includes("waiting for your answer"));
    expect(lines[statusRow]).toMatch(/\d+(\.\d)?k? of 8\.2k \(\d+%\)/);
    // The dialog sits right above the status line, across the screen, and says its keys.
    expect(lines[statusRow - 1]).toMatch(/^└─+┘$/);
    expect(screen).toContain("y/Enter allow once");
    tui.press("y");
    await tui.waitFor("Created.");
  });
});
