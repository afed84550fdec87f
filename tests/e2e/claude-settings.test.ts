// A Claude Code user's own `~/.claude/settings.json` works in agent0 unchanged (issue 31: "A user's
// existing hooks file ... must work unchanged where the tools exist"). The file is the settings
// reference's "Example settings.json" (code.claude.com/docs/en/settings: `$schema`, `permissions`
// with `Bash(npm run test:*)` allowed and `Bash(curl:*)` denied, `env`) with the user's own
// `Bash(npm test:*)`, and the PreToolUse hook of the hooks guide's quickstart
// (docs.anthropic.com/en/docs/claude-code/hooks-guide: matcher "Bash", a jq command that appends
// each shell command to ~/.claude/bash-command-log.txt). Keys agent0 does not use are left alone.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { startFakeOllama, type FakeOllama } from "../fakes/ollama-server.js";
import { eachTest, Tui, waitUntil, type Sandbox, writeJson } from "./harness.js";

const MODEL = { name: "qwen3:8b", contextLength: 40960 };
const shellCall = (command: string) => ({
  steps: [{ toolCalls: [{ name: "run_shell_command", arguments: { command } }] }],
});
const LOG_HOOK = `jq -r '"\\(.tool_input.command) - \\(.tool_input.description // "No description")"' >> ~/.claude/bash-command-log.txt`;

describe("the user's ~/.claude/settings.json", () => {
  let sb: Sandbox;
  let fake: FakeOllama | undefined;
  let tui: Tui | undefined;
  eachTest(
    (s) => (sb = s),
    () => [tui, fake],
  );

  it("TUI: its allow rule skips the dialog, its deny rule refuses, its PreToolUse hook runs; /hooks and /permissions name the file", async () => {
    const settings = path.join(sb.home, ".claude", "settings.json");
    writeJson(settings, {
      $schema: "https://json.schemastore.org/claude-code-settings.json",
      permissions: {
        allow: ["Bash(npm run lint)", "Bash(npm run test:*)", "Read(~/.zshrc)", "Bash(npm test:*)"],
        deny: ["Bash(curl:*)", "Read(./.env)", "Read(./.env.*)", "Read(./secrets/**)"],
      },
      env: { CLAUDE_CODE_ENABLE_TELEMETRY: "1", OTEL_METRICS_EXPORTER: "otlp" },
      hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: LOG_HOOK }] }] },
    });
    writeJson(path.join(sb.project, "package.json"), {
      name: "p",
      private: true,
      scripts: { test: "node -e \"require('fs').writeFileSync('tests-ran.txt', 'yes')\"" },
    });
    fake = await startFakeOllama({
      models: [MODEL],
      replies: [
        shellCall("npm test"),
        { steps: [{ text: "Tests ran." }] },
        shellCall("curl -s http://127.0.0.1:9/x"),
        { steps: [{ text: "Curl refused." }] },
      ],
    });
    tui = await Tui.open(sb, ["--host", fake.url, "--model", MODEL.name], { width: 160, height: 36 });
    tui.send("run the tests");
    await tui.waitFor("Tests ran.");
    expect(tui.screen()).not.toContain("Allow run_shell_command?");
    expect(fs.readFileSync(path.join(sb.project, "tests-ran.txt"), "utf8")).toBe("yes");
    expect(fs.readFileSync(path.join(sb.home, ".claude", "bash-command-log.txt"), "utf8")).toBe(
      "npm test - No description\n",
    );

    tui.send("fetch it");
    await tui.waitFor("Curl refused.");
    expect(tui.screen()).not.toContain("Allow run_shell_command?");
    const refused = fake.chats[3]!.messages.filter((m) => m.role === "tool").at(-1)!;
    expect(refused.content).toContain("Bash(curl:*)");

    tui.send("/hooks");
    const hooks = await tui.waitFor("PreToolUse [Bash]");
    expect(hooks).toContain(settings);
    tui.send("/permissions");
    const rules = await tui.waitFor("allow Bash(npm test:*)");
    expect(rules).toMatch(/allow Bash\(npm test:\*\)\s+— .*\.claude\/settings\.json/);
    expect(rules).toMatch(/deny {2}Bash\(curl:\*\)\s+— .*\.claude\/settings\.json/);
  });

  // The Notification hook of notifier setups users share (e.g. js-koo.github.io claude-code-notifier:
  // `"matcher": "idle_prompt"`), with Claude Code's `messageIdleNotifThresholdMs` shortened.
  it("TUI: a Notification hook on idle_prompt runs once after an answer, when the input waits", async () => {
    const log = path.join(sb.home, "idle.log");
    writeJson(path.join(sb.home, ".claude", "settings.json"), {
      hooks: {
        Notification: [
          { matcher: "idle_prompt", hooks: [{ type: "command", command: `cat >> ${log}; echo >> ${log}` }] },
        ],
      },
    });
    writeJson(path.join(sb.env.XDG_CONFIG_HOME!, "agent0", "config.json"), { messageIdleNotifThresholdMs: 300 });
    fake = await startFakeOllama({ models: [MODEL], replies: [{ steps: [{ text: "Answered." }] }] });
    tui = await Tui.open(sb, ["--host", fake.url, "--model", MODEL.name], { width: 120, height: 30 });
    // When the wait starts, and that it tells once (not before an answer, not twice without new
    // activity), is a sequence of Msgs without a clock: tests/ui/idle-notification.test.ts.
    tui.send("hello");
    await tui.waitFor("Answered.");
    const written = () => fs.existsSync(log) && fs.readFileSync(log, "utf8").endsWith("}\n");
    await waitUntil(written, 10_000, "the idle Notification hook to run");
    const input = JSON.parse(fs.readFileSync(log, "utf8").trim()) as Record<string, unknown>;
    expect(input).toMatchObject({
      hook_event_name: "Notification",
      notification_type: "idle_prompt",
      message: "agent0 is waiting for your input",
      cwd: sb.project,
    });
    expect(String(input.transcript_path)).toMatch(/\.jsonl$/);
    // One notification: the wait the answer started.
    expect(fs.readFileSync(log, "utf8").trim().split("\n")).toHaveLength(1);
  });
});
