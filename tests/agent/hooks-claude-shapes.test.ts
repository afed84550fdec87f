// Hooks against Claude Code's hooks reference, row by row (docs.anthropic.com/en/docs/claude-code/hooks,
// now code.claude.com/docs/en/hooks): "Hook Input" (the common fields and each event's own),
// "Hook Output" (exit codes; "Advanced: JSON Output": `continue`/`stopReason`, `suppressOutput`,
// `decision: "block"` for PostToolUse, Stop and UserPromptSubmit, `hookSpecificOutput` with
// `hookEventName`, `permissionDecision`, `permissionDecisionReason`, `additionalContext`) and the
// matcher rules ("Use `*` to match all tools. You can also use empty string ("") or leave matcher
// blank"; "Edit|Write", "Notebook.*"; MCP tools as `mcp__<server>__<tool>`, e.g. `mcp__memory__.*`).
// Each row runs the real loop with a scripted model and a hook script that records its stdin.
import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { runAgent } from "../../src/agent/loop.js";
import { hookMatches, runNotificationHooks } from "../../src/agent/hooks/hooks.js";
import type { RunEvent } from "../../src/protocol/agent-event.js";
import type { ConversationMessage } from "../../src/protocol/conversation.js";
import type { HooksConfig } from "../../src/protocol/hooks.js";
import type { RunConfig } from "../../src/protocol/run-config.js";
import { coreTools } from "../../src/tools/catalog.js";
import { createSessionMemory } from "../../src/tools/session-memory.js";
import { scriptedProvider, type Reply } from "./scripted-provider.js";
import { tempProject, testConfig } from "../tools/ctx.js";

// A test may run several projects: each is removed after it.
const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

/** A hook that saves its stdin to `<dir>/<name>.json`, prints `stdout` and `stderr`, and exits `code`. */
function script(
  dir: string,
  name: string,
  out: { stdout?: string; stderr?: string; code?: number; body?: string } = {},
): string {
  const file = path.join(dir, `${name}.sh`);
  const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
  fs.writeFileSync(
    file,
    [
      "#!/bin/sh",
      `cat > ${q(path.join(dir, `${name}.json`))}`,
      out.stdout ? `printf '%s' ${q(out.stdout)}` : "",
      out.stderr ? `printf '%s' ${q(out.stderr)} >&2` : "",
      out.body ?? "",
      `exit ${out.code ?? 0}`,
    ].join("\n"),
    { mode: 0o755 },
  );
  return file;
}

const on = (command: string, matcher?: string) => [
  { ...(matcher !== undefined ? { matcher } : {}), hooks: [{ type: "command" as const, command }], source: "test" },
];

interface Row {
  hooks: (dir: string) => HooksConfig;
  replies: Reply[];
  mode?: RunConfig["permissionMode"];
  rules?: RunConfig["permissionRules"];
  conversation?: ConversationMessage[];
}

async function run(row: Row) {
  const project = tempProject({ "a.txt": "alpha\n" });
  const hookDir = fs.mkdtempSync(path.join(project.dir, ".hooks-"));
  cleanups.push(project.cleanup);
  const provider = scriptedProvider(row.replies);
  const config: RunConfig = {
    ...testConfig(project.dir),
    permissionMode: row.mode ?? "yolo",
    interactive: true,
    sessionId: "sess-1",
    transcriptPath: path.join(project.dir, "sess-1.jsonl"),
    hooks: row.hooks(hookDir),
    ...(row.rules ? { permissionRules: row.rules } : {}),
  };
  const events: RunEvent[] = [];
  const asked: string[] = [];
  const result = await runAgent(row.conversation ?? [{ role: "user", content: "go" }], config, {
    provider,
    tools: coreTools,
    emit: (e) => events.push(e),
    signal: new AbortController().signal,
    memory: createSessionMemory("sess-1"),
    askUser: async (req) => {
      asked.push(req.tool);
      return { decision: "once" };
    },
  });
  const input = (name: string) =>
    JSON.parse(fs.readFileSync(path.join(hookDir, `${name}.json`), "utf8")) as Record<string, unknown>;
  const ran = (name: string) => fs.existsSync(path.join(hookDir, `${name}.json`));
  const notices = events.flatMap((e) => (e.type === "notice" ? [e.text] : []));
  const toolResults = result.conversation.filter((m) => m.role === "tool").map((m) => m.content);
  return { result, provider, input, ran, notices, toolResults, events, asked, project, config };
}

const bash = (command: string): Reply => ({ calls: [{ id: "c1", name: "run_shell_command", args: { command } }] });

describe("hook input, as Claude Code sends it", () => {
  it("every event carries session_id, transcript_path, cwd and hook_event_name", async () => {
    const r = await run({
      hooks: (d) => ({
        SessionStart: on(script(d, "start")),
        UserPromptSubmit: on(script(d, "prompt")),
        PreToolUse: on(script(d, "pre"), "Bash"),
        PostToolUse: on(script(d, "post"), "Bash"),
        Stop: on(script(d, "stop")),
      }),
      replies: [bash("echo hi"), { text: "done" }],
    });
    for (const [name, event] of [
      ["start", "SessionStart"],
      ["prompt", "UserPromptSubmit"],
      ["pre", "PreToolUse"],
      ["post", "PostToolUse"],
      ["stop", "Stop"],
    ] as const)
      expect(r.input(name)).toMatchObject({
        session_id: "sess-1",
        transcript_path: path.join(r.project.dir, "sess-1.jsonl"),
        cwd: r.project.dir,
        hook_event_name: event,
      });
    expect(r.input("start")).toMatchObject({ source: "startup" });
    expect(r.input("prompt")).toMatchObject({ prompt: "go" });
    expect(r.input("pre")).toMatchObject({ tool_name: "Bash", tool_input: { command: "echo hi" } });
    expect(r.input("pre")).not.toHaveProperty("tool_response");
    expect(r.input("post")).toMatchObject({ tool_name: "Bash", tool_input: { command: "echo hi" } });
    expect(r.input("post").tool_response).toMatchObject({ success: true });
    expect(r.input("stop")).toMatchObject({ stop_hook_active: false });
  });

  it('SessionStart\'s source is "resume" for a conversation that already has answers', async () => {
    const r = await run({
      hooks: (d) => ({ SessionStart: on(script(d, "start")) }),
      replies: [{ text: "again" }],
      conversation: [
        { role: "user", content: "first" },
        { role: "assistant", content: "answer" },
        { role: "user", content: "more" },
      ],
    });
    expect(r.input("start")).toMatchObject({ hook_event_name: "SessionStart", source: "resume" });
  });

  it("Notification carries message and notification_type, and its matcher sees the type", async () => {
    const project = tempProject({});
    cleanups.push(project.cleanup);
    const config: RunConfig = {
      ...testConfig(project.dir),
      hooks: {
        Notification: [
          ...on(script(project.dir, "perm"), "permission_prompt"),
          ...on(script(project.dir, "idle"), "idle_prompt"),
          ...on(script(project.dir, "all"), ""),
        ],
      },
    };
    await runNotificationHooks(config, "idle_prompt", "agent0 is waiting for your input", () => {});
    const read = (n: string) => JSON.parse(fs.readFileSync(path.join(project.dir, `${n}.json`), "utf8")) as unknown;
    expect(fs.existsSync(path.join(project.dir, "perm.json"))).toBe(false);
    expect(read("idle")).toMatchObject({
      hook_event_name: "Notification",
      message: "agent0 is waiting for your input",
      notification_type: "idle_prompt",
    });
    expect(read("all")).toMatchObject({ notification_type: "idle_prompt" });
  });
});

describe("hook output, as Claude Code reads it", () => {
  it("exit 0 with plain stdout on PreToolUse: the tool runs, the stdout is not the model's", async () => {
    const r = await run({
      hooks: (d) => ({ PreToolUse: on(script(d, "pre", { stdout: "just logging" }), "Bash") }),
      replies: [bash("echo ran"), { text: "done" }],
    });
    expect(r.toolResults[0]).toContain("ran");
    expect(r.toolResults[0]).not.toContain("just logging");
  });

  it("exit 2 on PreToolUse: blocked, stderr to the model", async () => {
    const r = await run({
      hooks: (d) => ({ PreToolUse: on(script(d, "pre", { stderr: "no rm here", code: 2 }), "Bash") }),
      replies: [bash("echo ran"), { text: "done" }],
    });
    expect(r.toolResults[0]).toBe("Blocked by a PreToolUse hook: no rm here");
  });

  it("another exit code: a hook error the user sees, and the tool runs", async () => {
    const r = await run({
      hooks: (d) => ({ PreToolUse: on(script(d, "pre", { stderr: "oops", code: 1 }), "Bash") }),
      replies: [bash("echo ran"), { text: "done" }],
    });
    expect(r.toolResults[0]).toContain("ran");
    expect(r.notices.some((n) => n.includes("exited 1: oops"))).toBe(true);
  });

  it("top-level `continue: false` + `stopReason` on PreToolUse: the tool does not run, the run ends, the user is told", async () => {
    const r = await run({
      hooks: (d) => ({
        PreToolUse: on(script(d, "pre", { stdout: '{"continue": false, "stopReason": "build is broken"}' }), "Bash"),
      }),
      replies: [bash("touch made.txt"), { text: "should not be asked" }],
    });
    expect(fs.existsSync(path.join(r.project.dir, "made.txt"))).toBe(false);
    expect(r.provider.requests).toHaveLength(1);
    expect(r.notices).toContain("A hook stopped the run: build is broken");
    expect(r.result.reason).toBe("complete");
  });

  it("`continue: false` on PostToolUse: the tool has run, the run ends after it", async () => {
    const r = await run({
      hooks: (d) => ({
        PostToolUse: on(script(d, "post", { stdout: '{"continue": false, "stopReason": "enough"}' }), "Bash"),
      }),
      replies: [bash("touch made.txt"), { text: "should not be asked" }],
    });
    expect(fs.existsSync(path.join(r.project.dir, "made.txt"))).toBe(true);
    expect(r.provider.requests).toHaveLength(1);
    expect(r.notices).toContain("A hook stopped the run: enough");
  });

  it('`continue: false` on Stop ends the run even with `decision: "block"`', async () => {
    const r = await run({
      hooks: (d) => ({
        Stop: on(
          script(d, "stop", {
            stdout: '{"continue": false, "stopReason": "halt", "decision": "block", "reason": "more"}',
          }),
        ),
      }),
      replies: [{ text: "done" }],
    });
    expect(r.provider.requests).toHaveLength(1);
    expect(r.notices).toContain("A hook stopped the run: halt");
  });

  it("`suppressOutput: true` is accepted: nothing blocks, nothing is said", async () => {
    const r = await run({
      hooks: (d) => ({ PreToolUse: on(script(d, "pre", { stdout: '{"suppressOutput": true}' }), "Bash") }),
      replies: [bash("echo ran"), { text: "done" }],
    });
    expect(r.toolResults[0]).toContain("ran");
    expect(r.notices.filter((n) => n.includes("hook"))).toEqual([]);
  });

  it('`decision: "block"` + reason on PostToolUse: the reason goes to the model with the result', async () => {
    const r = await run({
      hooks: (d) => ({
        PostToolUse: on(script(d, "post", { stdout: '{"decision": "block", "reason": "lint failed"}' }), "Bash"),
      }),
      replies: [bash("echo ran"), { text: "done" }],
    });
    expect(r.toolResults[0]).toContain("ran");
    expect(r.toolResults[0]).toContain("PostToolUse hook: lint failed");
  });

  it('`decision: "block"` + reason on Stop: the model goes on, told the reason', async () => {
    const r = await run({
      hooks: (d) => ({
        Stop: on(
          // The reference's advice: check stop_hook_active, or the model is sent back for ever.
          script(d, "stop", {
            body: `grep -q '"stop_hook_active":true' ${d}/stop.json && exit 0\nprintf '%s' '{"decision": "block", "reason": "run the tests first"}'`,
          }),
          // Stop takes no matcher in Claude Code: one written anyway is ignored.
          "Bash",
        ),
      }),
      replies: [{ text: "done" }, { text: "tests run" }],
    });
    expect(r.input("stop")).toMatchObject({ stop_hook_active: true });
    expect(r.provider.requests[1]!.messages.at(-1)).toMatchObject({
      role: "user",
      content: "Stop hook: run the tests first",
    });
  });

  it('`decision: "block"` + reason on UserPromptSubmit: the prompt never reaches the model, the user gets the reason', async () => {
    const r = await run({
      hooks: (d) => ({
        UserPromptSubmit: on(
          script(d, "prompt", { stdout: '{"decision": "block", "reason": "no secrets in prompts"}' }),
        ),
      }),
      replies: [],
    });
    expect(r.provider.requests).toHaveLength(0);
    expect(r.events).toContainEqual({ type: "prompt-blocked", reason: "no secrets in prompts", source: "hook" });
  });

  it("hookSpecificOutput.permissionDecision deny + permissionDecisionReason: blocked with the reason", async () => {
    const out = {
      hookSpecificOutput: {
        hookEventName: "PreToolUse",
        permissionDecision: "deny",
        permissionDecisionReason: "not on main",
      },
    };
    const r = await run({
      hooks: (d) => ({ PreToolUse: on(script(d, "pre", { stdout: JSON.stringify(out) }), "Bash") }),
      replies: [bash("touch made.txt"), { text: "done" }],
    });
    expect(r.toolResults[0]).toBe("Blocked by a PreToolUse hook: not on main");
    expect(fs.existsSync(path.join(r.project.dir, "made.txt"))).toBe(false);
  });

  it("permissionDecision allow skips the question; ask asks even where a rule allows", async () => {
    const decide = (d: string, decision: string) =>
      JSON.stringify({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: decision } });
    const allowed = await run({
      mode: "ask",
      hooks: (d) => ({ PreToolUse: on(script(d, "pre", { stdout: decide(d, "allow") }), "Bash") }),
      replies: [bash("touch made.txt"), { text: "done" }],
    });
    expect(allowed.asked).toEqual([]);
    expect(fs.existsSync(path.join(allowed.project.dir, "made.txt"))).toBe(true);
    // An allow rule would let it through; the hook's ask asks all the same.
    const asked = await run({
      mode: "ask",
      rules: [{ rule: "Bash(touch:*)", kind: "allow", source: "test" }],
      hooks: (d) => ({ PreToolUse: on(script(d, "pre", { stdout: decide(d, "ask") }), "Bash") }),
      replies: [bash("touch made.txt"), { text: "done" }],
    });
    expect(asked.asked).toEqual(["run_shell_command"]);
    // The user's own hook asking is a question even in yolo (bypassPermissions): the hook chose to ask.
    const yolo = await run({
      mode: "yolo",
      hooks: (d) => ({ PreToolUse: on(script(d, "pre", { stdout: decide(d, "ask") }), "Bash") }),
      replies: [bash("touch made.txt"), { text: "done" }],
    });
    expect(yolo.asked).toEqual(["run_shell_command"]);
  });

  it("additionalContext of UserPromptSubmit, SessionStart and PostToolUse reaches the model", async () => {
    const ctx = (event: string, text: string) =>
      JSON.stringify({ hookSpecificOutput: { hookEventName: event, additionalContext: text } });
    const r = await run({
      hooks: (d) => ({
        SessionStart: on(script(d, "start", { stdout: ctx("SessionStart", "ctx-from-start") })),
        UserPromptSubmit: on(script(d, "prompt", { stdout: ctx("UserPromptSubmit", "ctx-from-prompt") })),
        PostToolUse: on(script(d, "post", { stdout: ctx("PostToolUse", "ctx-from-post") }), "Bash"),
      }),
      replies: [bash("echo ran"), { text: "done" }],
    });
    const first = JSON.stringify(r.provider.requests[0]!.messages);
    expect(first).toContain("ctx-from-start");
    expect(first).toContain("ctx-from-prompt");
    expect(r.toolResults[0]).toContain("ctx-from-post");
  });
});

describe("matchers, as Claude Code reads them", () => {
  it.each([
    ["", "run_shell_command", true],
    ["*", "mcp__github__create_issue", true],
    [undefined, "read_file", true],
    ["Bash", "Bash", true],
    ["Bash", "BashOutput", false],
    ["Edit|Write", "Write", true],
    ["Notebook.*", "NotebookEdit", true],
    ["mcp__memory__.*", "mcp__memory__create_entities", true],
    ["mcp__memory__.*", "mcp__github__create_issue", false],
    ["mcp__.*__write.*", "mcp__fs__write_file", true],
  ])("matcher %j over %s: %s", (matcher, tool, expected) => {
    expect(hookMatches(matcher, [tool])).toBe(expected);
  });

  it("an MCP tool's PreToolUse hook with `mcp__server__.*` runs in the loop", async () => {
    const r = await run({
      hooks: (d) => ({ PreToolUse: on(script(d, "pre", { stderr: "mcp blocked", code: 2 }), "mcp__.*") }),
      replies: [bash("echo ran"), { text: "done" }],
    });
    // A shell call is not an MCP tool: the hook does not run.
    expect(r.ran("pre")).toBe(false);
    expect(r.toolResults[0]).toContain("ran");
  });
});
