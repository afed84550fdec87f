// Claude Code's statusLine (code.claude.com/docs/en/statusline): "updates run at most every 300 ms",
// "the first line of stdout becomes the status line text", ANSI colours supported.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import type { Cmd, Msg } from "../../src/ui/msg.js";
import { update } from "../../src/ui/update/index.js";
import { view } from "../../src/ui/view/index.js";
import { createStatusLineRunner, runStatusCommand } from "../../src/ui/runtime/status-line.js";
import { effectiveSettings, loadSettingsFiles, needsTrust } from "../../src/context/settings-files.js";
import { feed, newModel, strip, typeText } from "./helpers.js";

const statusCmds = (cmds: Cmd[]) => cmds.filter((c) => c.type === "status-line");
const withCommand = () => {
  const [m] = update(newModel(), { type: "tick", now: 1000 });
  return { ...m, config: { ...m.config, statusLine: { command: "my-status", source: "/config.json" } } };
};
const input = { hook_event_name: "Status" as const, session_id: "s1", cwd: "/", model: { id: "m", display_name: "m" } };
const request = (command: string) => ({
  command,
  cwd: os.tmpdir(),
  input: {
    ...input,
    workspace: { current_dir: "/", project_dir: "/" },
    output_style: { name: "default" },
    cost: { total_api_duration_ms: 0 },
  },
});

describe("the status line command, in update and view", () => {
  it("is asked for once per state: keys and ticks alone do not run it again", () => {
    const first = update(withCommand(), { type: "tick", now: 2000 });
    const sent = statusCmds(first[1]);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({
      command: "my-status",
      input: {
        hook_event_name: "Status",
        session_id: "s1",
        cwd: "/project",
        model: { id: "qwen3:8b", display_name: "qwen3:8b" },
        workspace: { current_dir: "/project", project_dir: "/project" },
        cost: { total_cost_usd: 0, total_api_duration_ms: 0 },
        context_window: { context_window_size: 8192, used_percentage: 0, remaining_percentage: 100 },
      },
    });
    const again = feed(first[0], { type: "tick", now: 9000 }, ...typeText("abc"));
    expect(statusCmds(again.cmds)).toHaveLength(0);
    const added = feed(again.model, { type: "dir-added", dir: "/shared" });
    expect(statusCmds(added.cmds)).toMatchObject([{ input: { workspace: { added_dirs: ["/shared"] } } }]);
  });

  it("replaces the model and context figures; escapes other than colours are shown, not obeyed", () => {
    const [asked] = update(withCommand(), { type: "tick", now: 2000 });
    const [m] = update(asked, {
      type: "status-line-text",
      text: "\x1b[2J\x1b]0;pwned\x07\x1b[32mbranch:main\x1b[0m ctx:42%",
    });
    const status = view(m).status;
    expect(status).not.toContain("\x1b[2J");
    expect(status).not.toContain("\x1b]0;");
    expect(status).toContain("\x1b[32mbranch:main");
    const shown = strip(status);
    expect(shown).toMatch(/^idle · .*branch:main ctx:42%/);
    expect(shown).not.toContain("qwen3:8b");
    expect(shown).not.toContain("8k");
  });

  it("is cut to the width", () => {
    const [asked] = update(withCommand(), { type: "tick", now: 2000 });
    const [m] = update(asked, { type: "status-line-text", text: "x".repeat(300) });
    expect(strip(view(m).status).length).toBeLessThanOrEqual(80);
    expect(strip(view(m).status)).toMatch(/^idle · x+/);
  });

  it("a failure leaves agent0's own status line and says so once", () => {
    const fail: Msg = { type: "status-line-failed", error: "exit code 1" };
    const { model } = feed(withCommand(), { type: "status-line-text", text: "mine" }, fail, fail);
    expect(strip(view(model).status)).toMatch(/^idle · qwen3:8b · /);
    const notices = model.entries.filter((e) => e.kind === "notice" && e.text.includes("status line command failed"));
    expect(notices).toHaveLength(1);
  });
});

describe("running the status line command", () => {
  it("feeds it the JSON and keeps the first line of its output", async () => {
    const script = `let s = ""; process.stdin.on("data", (d) => (s += d)).on("end", () => { const j = JSON.parse(s); console.log(j.hook_event_name + " " + j.session_id + "\\nmore"); });`;
    const r = await runStatusCommand(request(`node -e '${script}'`), 5000);
    expect(r).toEqual({ ok: true, text: "Status s1" });
  });

  it("fails on a non-zero exit and on its time-out", async () => {
    expect(await runStatusCommand(request("echo hi; exit 2"), 5000)).toEqual({ ok: false, error: "exit code 2" });
    expect(await runStatusCommand(request("sleep 5"), 100)).toEqual({ ok: false, error: "no answer within 0.1 s" });
  });

  it("runs one at a time, at most every gap, the newest state last", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "agent0-status-"));
    onTestFinished(() => fs.rmSync(dir, { recursive: true, force: true }));
    const log = path.join(dir, "log");
    const answers: Msg[] = [];
    let clock = 0;
    const runner = createStatusLineRunner((m) => answers.push(m), { now: () => clock, gapMs: 50 });
    for (const n of [1, 2, 3]) runner.request(request(`echo ${n} >> ${log}; echo line-${n}`));
    await new Promise<void>((resolve) => {
      const check = setInterval(() => {
        clock += 10;
        if (answers.length >= 2) {
          clearInterval(check);
          resolve();
        }
      }, 10);
    });
    // The first ran at once; 2 was replaced by 3 before its turn came.
    expect(fs.readFileSync(log, "utf8")).toBe("1\n3\n");
    expect(answers).toEqual([
      { type: "status-line-text", text: "line-1" },
      { type: "status-line-text", text: "line-3" },
    ]);
  });
});

describe("statusLine in settings files", () => {
  it("a project's runs only once trusted; the user's always; the project's wins when trusted", () => {
    const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "agent0-statusline-")));
    fs.mkdirSync(path.join(dir, ".claude"));
    fs.writeFileSync(
      path.join(dir, ".claude", "settings.json"),
      JSON.stringify({ statusLine: { type: "command", command: "project.sh" } }),
    );
    const home = path.join(dir, "home");
    const mine = { file: "/u/config.json", statusLine: { type: "command", command: "mine.sh" } };
    const loaded = loadSettingsFiles(dir, mine, home);
    const project = loaded.files.find((f) => f.scope === "project")!;
    expect(needsTrust(project)).toBe(true);
    expect(effectiveSettings(loaded.files, () => false).statusLine?.command).toBe("mine.sh");
    expect(effectiveSettings(loaded.files, () => true).statusLine?.command).toBe("project.sh");
    // Claude Code's own user file counts too, below agent0's config.json.
    fs.mkdirSync(path.join(home, ".claude"), { recursive: true });
    fs.writeFileSync(
      path.join(home, ".claude", "settings.json"),
      JSON.stringify({ statusLine: { type: "command", command: "claude.sh" } }),
    );
    const both = loadSettingsFiles(
      dir,
      { file: "/u/config.json", statusLine: { type: "command", command: "mine.sh" } },
      home,
    );
    expect(effectiveSettings(both.files, () => false).statusLine?.command).toBe("mine.sh");
    const claudeOnly = loadSettingsFiles(dir, { file: "/u/config.json" }, home);
    expect(effectiveSettings(claudeOnly.files, () => false).statusLine?.command).toBe("claude.sh");
    const bad = loadSettingsFiles(dir, { file: "/u/config.json", statusLine: "mine.sh" }, home);
    expect(bad.warnings).toContain(
      '/u/config.json: statusLine: expected {"type": "command", "command": "..."} — ignored',
    );
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
