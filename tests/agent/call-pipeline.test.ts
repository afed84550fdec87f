// Check 1 of the call pipeline (agent/tool-call.ts): each row is decided once, in one stage, the
// same way whichever driver runs the session. The four drivers all run an agent session
// (agent/session.ts); `-p`, ACP and `mcp serve` drive it through their one host
// (cli/hosted-session.ts), which stamps each run and answers its permission requests, the TUI
// sends its commands itself. They differ in whether they can ask: the TUI and ACP can
// (interactive), `-p` cannot, `mcp serve` asks through elicitation when its client offers it
// (cli/mcp-serve.ts `canAsk`) and otherwise cannot. A row's outcome is the stage's own words in
// the tool result, whether the call needed the user's say (a `permission-request`, or in a run that
// cannot ask a `denied`, each naming the call's id) and the file the call writes.
// Rows after Claude Code's documented behaviour (docs.anthropic.com/en/docs/claude-code/iam
// "permission rules: deny > ask > allow"; docs.anthropic.com/en/docs/claude-code/hooks
// "PreToolUse decision control": permissionDecision allow/ask/deny, updatedInput; skills'
// allowed-tools: docs.anthropic.com/en/docs/claude-code/skills).
import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createAgentSession, type AgentSession } from "../../src/agent/session.js";
import type { AgentEvent } from "../../src/protocol/agent-event.js";
import type { PermissionMode, RunConfig } from "../../src/protocol/run-config.js";
import type { HooksConfig } from "../../src/protocol/hooks.js";
import { createFileTool } from "../../src/tools/files/create.js";
import { readFileTool } from "../../src/tools/files/read.js";
import { Checkpoints } from "../../src/session/checkpoints.js";
import { PLAN_MODE_REFUSAL } from "../../src/agent/approval.js";
import { scriptedProvider } from "./scripted-provider.js";
import { tempProject, testConfig } from "../tools/ctx.js";
import { HostedSession } from "../../src/cli/hosted-session.js";
import type { Logger } from "../../src/session/log.js";

const quietLogger: Logger = { path: "", event() {}, error() {}, info() {}, flush() {}, close() {} };

const DRIVERS = [
  { name: "TUI", interactive: true, hosted: false },
  { name: "-p", interactive: false, hosted: true },
  { name: "ACP", interactive: true, hosted: true },
  { name: "mcp serve", interactive: false, hosted: true },
] as const;
type Driver = (typeof DRIVERS)[number];

/** A PreToolUse hook that prints this JSON (Claude Code's hookSpecificOutput). */
function preToolUse(output: Record<string, unknown>): HooksConfig {
  const json = JSON.stringify({ hookSpecificOutput: { hookEventName: "PreToolUse", ...output } });
  const command = `${JSON.stringify(process.execPath)} -e ${JSON.stringify(`process.stdout.write(${JSON.stringify(json)})`)}`;
  return { PreToolUse: [{ matcher: "create_file", hooks: [{ type: "command", command }], source: "test" }] };
}

interface Row {
  name: string;
  mode: PermissionMode;
  config?: Partial<RunConfig>;
  /** A piece of the tool result only the deciding stage writes; undefined: the tool ran. */
  says?: string;
  /** The call needed the user's say (asked, or denied where no one can be asked). */
  asks: boolean;
  /** The file the call creates once it runs. */
  file?: string;
}

const ROWS: Row[] = [
  { name: "plan mode", mode: "plan", says: PLAN_MODE_REFUSAL, asks: false },
  {
    name: "a deny rule",
    mode: "yolo",
    config: { permissionRules: [{ rule: "Write(out.txt)", kind: "deny", source: "test" }] },
    says: "Refused by the permission rule deny Write(out.txt)",
    asks: false,
  },
  {
    // auto-edit would write unasked: the ask rule makes it ask.
    name: "an ask rule",
    mode: "auto-edit",
    config: { permissionRules: [{ rule: "Write", kind: "ask", source: "test" }] },
    asks: true,
    file: "out.txt",
  },
  {
    name: "an allow rule",
    mode: "ask",
    config: { permissionRules: [{ rule: "Write(out.txt)", kind: "allow", source: "test" }] },
    asks: false,
    file: "out.txt",
  },
  {
    name: "a PreToolUse deny",
    mode: "yolo",
    config: { hooks: preToolUse({ permissionDecision: "deny", permissionDecisionReason: "no writes today" }) },
    says: "Blocked by a PreToolUse hook: no writes today",
    asks: false,
  },
  {
    name: "a PreToolUse updatedInput",
    mode: "yolo",
    config: { hooks: preToolUse({ updatedInput: { path: "elsewhere.txt" } }) },
    asks: false,
    file: "elsewhere.txt",
  },
  {
    name: 'permissionDecision "ask" in yolo',
    mode: "yolo",
    config: { hooks: preToolUse({ permissionDecision: "ask" }) },
    asks: true,
    file: "out.txt",
  },
  {
    name: "a skill's allowed-tools",
    mode: "yolo",
    config: { toolFilter: ["read_file"] },
    says: "Refused: only these tools may be used for the rest of this run: read_file.",
    asks: false,
  },
];

const sessions: AgentSession[] = [];
const cleanups: (() => void)[] = [];
afterEach(async () => {
  await Promise.all(sessions.splice(0).map((s) => s.close()));
  for (const c of cleanups.splice(0)) c();
});

async function runRow(row: Row, driver: Driver) {
  const interactive = driver.interactive;
  const project = tempProject({});
  cleanups.push(project.cleanup);
  const provider = scriptedProvider([
    { calls: [{ id: "call-7", name: "create_file", args: { path: "out.txt", content: "hi\n" } }] },
    { text: "Done." },
  ]);
  const events: AgentEvent[] = [];
  const open = (post: (e: AgentEvent) => void) => {
    const session = createAgentSession({
      post,
      createProvider: () => provider,
      toolsFor: () => [readFileTool, createFileTool],
      checkpoints: (dir) => new Checkpoints(dir),
    });
    sessions.push(session);
    return session;
  };
  const config: RunConfig = {
    ...testConfig(project.dir),
    sessionId: "s1",
    interactive,
    permissionMode: row.mode,
    ...row.config,
  };
  const user = { role: "user" as const, content: "write it" };
  if (driver.hosted) {
    // The host stamps the run (its session id and file) and answers through answer().
    const hosted: HostedSession = new HostedSession({
      config,
      dir: path.join(project.dir, ".sessions"),
      logger: quietLogger,
      openAgent: (onEvent) => {
        const session = open((e) => setImmediate(() => onEvent(structuredClone(e))));
        return { send: (cmd) => session.handle(structuredClone(cmd)), close: () => session.close() };
      },
    });
    await hosted.prompt(user, (e) => {
      events.push(e);
      // The editor (or the MCP client) says yes to whatever is asked.
      if (e.type === "permission-request") hosted.answer(e.id, "once");
    });
    await hosted.close();
  } else {
    let done!: () => void;
    const finished = new Promise<void>((resolve) => (done = resolve));
    const session = open((e) => {
      events.push(e);
      // The user says yes to whatever is asked.
      if (e.type === "permission-request")
        session.handle({ type: "permission-reply", runId: 1, id: e.id, decision: "once" });
      if (e.type === "done") done();
    });
    session.handle({ type: "run", runId: 1, conversation: [user], config });
    await finished;
  }
  const result = events.flatMap((e) => (e.type === "message" && e.message.role === "tool" ? [e.message] : []));
  const asked = events.filter(
    (e) => (e.type === "permission-request" || e.type === "denied") && e.callId === "call-7",
  ).length;
  const files = ["out.txt", "elsewhere.txt"].filter((f) => fs.existsSync(path.join(project.dir, f)));
  return { result: result[0]!, asked, files };
}

describe("every call through one pipeline, whichever driver runs the session", () => {
  for (const driver of DRIVERS)
    for (const row of ROWS)
      it(`${driver.name}: ${row.name}`, async () => {
        const { result, asked, files } = await runRow(row, driver);
        expect(result.toolCallId).toBe("call-7");
        // Decided once: the user's say is needed once or not at all.
        expect(asked).toBe(row.asks ? 1 : 0);
        if (row.says) {
          expect(result.content).toContain(row.says);
          expect(files).toEqual([]);
        } else if (row.asks && !driver.interactive) {
          // Nobody to ask: the call that needed a say is refused, and says so.
          expect(result.content).toContain("cannot ask for permission");
          expect(files).toEqual([]);
        } else {
          expect(result.content).not.toMatch(/Refused|Blocked/);
          expect(files).toEqual([row.file]);
        }
      });
});
