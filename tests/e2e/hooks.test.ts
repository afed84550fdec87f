// Hooks (issue 31, part 2), end to end, in Claude Code's shape so existing hook files carry over.
// The shapes come from the hooks reference (docs.anthropic.com/en/docs/claude-code/hooks): a
// PreToolUse guard on "Bash" that exits 2 with the reason on stderr (the reference's "Exit code 2"
// example and the block-rm guards users share, e.g. dev.to/rulestack "copy-paste PreToolUse guard");
// a PostToolUse formatter on "Edit|Write" that reads `tool_input.file_path` (the reference's
// "Code formatting" example); `$CLAUDE_PROJECT_DIR` for scripts kept in the project; the JSON
// `hookSpecificOutput.permissionDecision: "deny"` answer many users' Python hooks print.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { startFakeOllama, type FakeOllama } from "../fakes/ollama-server.js";
import { eachTest, runHeadless, Tui, waitUntil, type Sandbox, writeJson, userConfigFile } from "./harness.js";

const MODEL = { name: "qwen3:8b", contextLength: 40960 };

/** A hook script: saves its stdin to `<dir>/<name>.json`, then runs `body` (sh) with $INPUT set. */
function hookScript(dir: string, name: string, body: string): string {
  const file = path.join(dir, `${name}.sh`);
  fs.writeFileSync(file, `#!/bin/sh\nINPUT=$(cat)\nprintf '%s' "$INPUT" > "${dir}/${name}.json"\n${body}\n`, {
    mode: 0o755,
  });
  return file;
}

describe("hooks", () => {
  let sb: Sandbox;
  let fake: FakeOllama | undefined;
  let tui: Tui | undefined;
  eachTest(
    (s) => (sb = s),
    () => [tui, fake],
  );
  const configFile = () => userConfigFile(sb);

  it("TUI: a PreToolUse hook with exit 2 blocks a shell command and its stderr reaches the model; it gets Claude Code's input", async () => {
    const guard = hookScript(
      sb.home,
      "guard",
      `case "$INPUT" in *'"command":"rm '*) echo "rm is blocked by policy: use trash instead" >&2; exit 2;; esac\nexit 0`,
    );
    writeJson(configFile(), {
      hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: guard }] }] },
    });
    fs.mkdirSync(path.join(sb.project, "important"));
    fake = await startFakeOllama({
      models: [MODEL],
      replies: [
        { steps: [{ toolCalls: [{ name: "run_shell_command", arguments: { command: "rm -rf important" } }] }] },
        { steps: [{ text: "The hook said no." }] },
      ],
    });
    tui = await Tui.open(sb, ["--host", fake.url, "--model", MODEL.name, "--yolo"], { width: 110, height: 32 });
    tui.send("clean up");
    await tui.waitFor("The hook said no.");
    expect(fs.existsSync(path.join(sb.project, "important"))).toBe(true);
    const tool = fake.chats[1]!.messages.find((m) => m.role === "tool")!;
    expect(tool.content).toContain("Blocked by a PreToolUse hook: rm is blocked by policy: use trash instead");
    const input = JSON.parse(fs.readFileSync(path.join(sb.home, "guard.json"), "utf8")) as Record<string, unknown>;
    expect(input).toMatchObject({
      hook_event_name: "PreToolUse",
      tool_name: "Bash",
      tool_input: { command: "rm -rf important" },
      cwd: sb.project,
    });
    expect(typeof input.session_id).toBe("string");
    expect(String(input.transcript_path)).toMatch(/\.jsonl$/);
    tui.send("/hooks");
    const listed = await tui.waitFor("PreToolUse [Bash]");
    expect(listed).toContain(configFile());
  });

  it("TUI: a PostToolUse hook runs after a write, with the file's absolute path, and what it blocks with goes to the model", async () => {
    const formatter = hookScript(
      sb.home,
      "format",
      `printf '%s' "$INPUT" | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{const i=JSON.parse(s);require("fs").appendFileSync(process.env.CLAUDE_PROJECT_DIR+"/formatted.log",i.tool_input.file_path+"\\n");process.stdout.write(JSON.stringify({decision:"block",reason:"lint: missing semicolon"}))})'`,
    );
    writeJson(configFile(), {
      hooks: {
        PostToolUse: [
          { matcher: "Edit|MultiEdit|Write", hooks: [{ type: "command", command: formatter, timeout: 30 }] },
        ],
      },
    });
    fake = await startFakeOllama({
      models: [MODEL],
      replies: [
        { steps: [{ toolCalls: [{ name: "write_file", arguments: { path: "src/a.js", content: "let a = 1\n" } }] }] },
        { steps: [{ text: "Written." }] },
      ],
    });
    tui = await Tui.open(sb, ["--host", fake.url, "--model", MODEL.name, "--yolo"], { width: 110, height: 32 });
    tui.send("write it");
    await tui.waitFor("Written.");
    expect(fs.readFileSync(path.join(sb.project, "formatted.log"), "utf8")).toBe(
      `${path.join(sb.project, "src", "a.js")}\n`,
    );
    const tool = fake.chats[1]!.messages.find((m) => m.role === "tool")!;
    expect(tool.content).toContain("PostToolUse hook: lint: missing semicolon");
    const input = JSON.parse(fs.readFileSync(path.join(sb.home, "format.json"), "utf8")) as Record<string, unknown>;
    expect(input).toMatchObject({
      hook_event_name: "PostToolUse",
      tool_name: "Write",
      tool_response: { success: true },
    });
  });

  it("TUI: a project's hook does not run before the user trusts it, and runs after", async () => {
    const canary = path.join(sb.home, "project-hook-ran");
    writeJson(path.join(sb.project, ".claude", "settings.json"), {
      hooks: { UserPromptSubmit: [{ hooks: [{ type: "command", command: `touch ${canary}` }] }] },
    });
    fake = await startFakeOllama({ models: [MODEL] });
    tui = await Tui.open(sb, ["--host", fake.url, "--model", MODEL.name], { width: 110, height: 32 });
    const dialog = await tui.waitFor("Trust this project's hooks and rules?");
    expect(dialog).toContain(`hook UserPromptSubmit: touch ${canary}`);
    expect(dialog).toContain(".claude/settings.json");
    tui.press("Enter"); // "Do not trust" is preselected
    await tui.waitFor("Not started: settings:.claude/settings.json");
    tui.send("hello");
    // UserPromptSubmit hooks run to their end before the prompt goes to the model: had it run, the
    // canary would be there before the request.
    await fake.waitForChats(1);
    expect(fs.existsSync(canary)).toBe(false);

    tui.send("/mcp trust settings:.claude/settings.json");
    await tui.waitFor("Trust this project's hooks and rules?");
    tui.press("Up");
    tui.press("Enter");
    await tui.waitFor("Trusted for this project: settings:.claude/settings.json");
    tui.send("hello again");
    await waitUntil(() => fs.existsSync(canary), 10_000, "the trusted project hook to run");
  });

  it("headless: a project's hook does not run untrusted", async () => {
    const canary = path.join(sb.home, "project-hook-ran");
    writeJson(path.join(sb.project, ".claude", "settings.json"), {
      hooks: {
        UserPromptSubmit: [{ hooks: [{ type: "command", command: `touch ${canary}` }] }],
        PreToolUse: [{ matcher: "*", hooks: [{ type: "command", command: `touch ${canary}` }] }],
      },
    });
    fake = await startFakeOllama({
      models: [MODEL],
      replies: [{ steps: [{ toolCalls: [{ name: "list_files", arguments: {} }] }] }, { steps: [{ text: "Listed." }] }],
    });
    const r = await runHeadless(sb, ["-p", "list the files", "--host", fake.url, "--model", MODEL.name]);
    expect(r.stderr).toContain(".claude/settings.json is not trusted in this project");
    expect(r.code).toBe(0);
    expect(fake.chats).toHaveLength(2);
    expect(fs.existsSync(canary)).toBe(false);
  });

  it("headless: a UserPromptSubmit hook's exit 2 keeps the prompt from the model and tells the user", async () => {
    const guard = hookScript(sb.home, "prompt-guard", `echo "prompts must not carry keys" >&2; exit 2`);
    writeJson(configFile(), { hooks: { UserPromptSubmit: [{ hooks: [{ type: "command", command: guard }] }] } });
    fake = await startFakeOllama({ models: [MODEL] });
    const r = await runHeadless(sb, ["-p", "my key is sk-canary-999", "--host", fake.url, "--model", MODEL.name]);
    expect(r.stderr).toContain("a UserPromptSubmit hook blocked the prompt: prompts must not carry keys");
    expect(r.code).toBe(1);
    expect(fake.chats).toHaveLength(0);
    const input = JSON.parse(fs.readFileSync(path.join(sb.home, "prompt-guard.json"), "utf8")) as Record<
      string,
      unknown
    >;
    expect(input).toMatchObject({ hook_event_name: "UserPromptSubmit", prompt: "my key is sk-canary-999" });
  });

  it("headless: a JSON permissionDecision deny blocks the call; a hook that fails otherwise does not block", async () => {
    const deny = hookScript(
      sb.home,
      "deny",
      `printf '%s' '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no writes to generated/"}}'`,
    );
    const broken = hookScript(sb.home, "broken", `echo "oops" >&2; exit 1`);
    writeJson(configFile(), {
      hooks: {
        PreToolUse: [
          { matcher: "Bash", hooks: [{ type: "command", command: broken }] },
          { matcher: "Write", hooks: [{ type: "command", command: deny }] },
        ],
      },
    });
    fake = await startFakeOllama({
      models: [MODEL],
      replies: [
        {
          steps: [
            {
              toolCalls: [
                { name: "write_file", arguments: { path: "generated/x.txt", content: "x" } },
                { name: "run_shell_command", arguments: { command: "touch ran.txt" } },
              ],
            },
          ],
        },
        { steps: [{ text: "Done." }] },
      ],
    });
    const r = await runHeadless(sb, ["-p", "go", "--host", fake.url, "--model", MODEL.name, "--yolo"]);
    expect(r.code).toBe(0);
    expect(fs.existsSync(path.join(sb.project, "generated", "x.txt"))).toBe(false);
    expect(fs.existsSync(path.join(sb.project, "ran.txt"))).toBe(true);
    expect(r.stderr).toContain(`PreToolUse hook error: ${broken} exited 1: oops`);
    const tools = fake.chats[1]!.messages.filter((m) => m.role === "tool").map((m) => m.content);
    expect(tools[0]).toContain("Blocked by a PreToolUse hook: no writes to generated/");
  });

  it("headless: SessionStart adds context, a Stop hook's block sends the model back to work once, SessionEnd runs at the end", async () => {
    const start = hookScript(
      sb.home,
      "start",
      `printf '%s' '{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"Branch policy: never push to main."}}'`,
    );
    // The reference's Stop example: block unless stop_hook_active (it already sent the model back once).
    const stop = hookScript(
      sb.home,
      "stop",
      `case "$INPUT" in *'"stop_hook_active":true'*) exit 0;; esac\necho "run the tests before you stop" >&2\nexit 2`,
    );
    const end = hookScript(sb.home, "end", "exit 0");
    writeJson(configFile(), {
      hooks: {
        SessionStart: [{ hooks: [{ type: "command", command: start }] }],
        Stop: [{ hooks: [{ type: "command", command: stop }] }],
        SessionEnd: [{ hooks: [{ type: "command", command: end }] }],
      },
    });
    fake = await startFakeOllama({
      models: [MODEL],
      replies: [{ steps: [{ text: "Done, I think." }] }, { steps: [{ text: "Tests pass now." }] }],
    });
    const r = await runHeadless(sb, ["-p", "fix it", "--host", fake.url, "--model", MODEL.name]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("Tests pass now.\n");
    const first = fake.chats[0]!.messages;
    expect(first.some((m) => m.role === "user" && m.content.includes("Branch policy: never push to main."))).toBe(true);
    expect(fake.chats[1]!.messages.at(-1)).toMatchObject({
      role: "user",
      content: "Stop hook: run the tests before you stop",
    });
    expect(fake.chats).toHaveLength(2);
    const ended = JSON.parse(fs.readFileSync(path.join(sb.home, "end.json"), "utf8")) as Record<string, unknown>;
    expect(ended.hook_event_name).toBe("SessionEnd");
  });
});
