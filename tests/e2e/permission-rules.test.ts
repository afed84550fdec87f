// Rules that last (issue 31, part 4), end to end. Rules are written as Claude Code users write
// them (code.claude.com/docs/en/permissions): `Bash(touch:*)` in `permissions.allow`, the
// `--allowedTools` flag of its CLI reference. The commands are harmless ones that are not on
// agent0's read-only allowlist, so only a rule lets them run unasked.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { startFakeOllama, type FakeOllama } from "../fakes/ollama-server.js";
import { eachTest, runHeadless, Tui, type Sandbox, writeJson, userConfigFile } from "./harness.js";

const MODEL = { name: "qwen3:8b", contextLength: 40960 };
const shellCall = (command: string) => ({
  steps: [{ toolCalls: [{ name: "run_shell_command", arguments: { command } }] }],
});

describe("permission rules", () => {
  let sb: Sandbox;
  let fake: FakeOllama | undefined;
  let tui: Tui | undefined;
  eachTest(
    (s) => (sb = s),
    () => [tui, fake],
  );
  const configFile = () => userConfigFile(sb);

  it("TUI: an allow rule skips the dialog for its prefix, and not for a compound command built on it", async () => {
    writeJson(configFile(), { permissions: { allow: ["Bash(touch:*)"] } });
    fake = await startFakeOllama({
      models: [MODEL],
      replies: [
        shellCall("touch made-by-rule.txt"),
        { steps: [{ text: "Made it." }] },
        shellCall("touch second.txt && rm -f made-by-rule.txt"),
        { steps: [{ text: "Stopped." }] },
      ],
    });
    tui = await Tui.open(sb, ["--host", fake.url, "--model", MODEL.name], { width: 110, height: 32 });
    tui.send("make a file");
    await tui.waitFor("Made it.");
    expect(fs.existsSync(path.join(sb.project, "made-by-rule.txt"))).toBe(true);
    expect(tui.screen()).not.toContain("Allow run_shell_command?");

    tui.send("make two files");
    const dialog = await tui.waitFor("Allow run_shell_command?");
    expect(dialog).toContain("touch second.txt && rm -f made-by-rule.txt");
    tui.press("n");
    await tui.waitFor("Stopped.");
    expect(fs.existsSync(path.join(sb.project, "made-by-rule.txt"))).toBe(true);
    expect(fs.existsSync(path.join(sb.project, "second.txt"))).toBe(false);
  });

  it("TUI: `a` offers the exact command, its prefix for the project (saved), or the tool; the saved rule lasts", async () => {
    fake = await startFakeOllama({
      models: [MODEL],
      replies: [
        shellCall("touch one.txt"),
        { steps: [{ text: "First done." }] },
        shellCall("touch two.txt"),
        { steps: [{ text: "Second done." }] },
      ],
    });
    const launch = async () => {
      tui?.kill();
      tui = await Tui.open(sb, ["--host", fake!.url, "--model", MODEL.name], { width: 110, height: 32 });
      return tui;
    };
    let t = await launch();
    t.send("first");
    await t.waitFor("Allow run_shell_command?");
    t.press("a");
    const menu = await t.waitFor("always allow run_shell_command(touch:*), in this project");
    expect(menu).toContain("1 always allow this exact command, for this session");
    expect(menu).toContain("3 always allow every shell command, for this session");
    t.press("2");
    await t.waitFor("First done.");
    await t.waitFor("Saved allow run_shell_command(touch:*)");
    const saved = JSON.parse(fs.readFileSync(path.join(sb.project, ".agent0", "settings.json"), "utf8")) as {
      permissions: { allow: string[] };
    };
    expect(saved.permissions.allow).toEqual(["run_shell_command(touch:*)"]);

    // A new launch: the project's rule counts (the user wrote it, so the file stays trusted) and
    // /permissions names where it came from.
    // The trust dialog would have opened at launch and taken the keys: the run answering shows it did not.
    t = await launch();
    t.send("second");
    await t.waitFor("Second done.");
    expect(t.screen()).not.toContain("Trust this project's hooks and rules?");
    expect(fs.existsSync(path.join(sb.project, "two.txt"))).toBe(true);
    expect(t.screen()).not.toContain("Allow run_shell_command?");
    t.send("/permissions");
    const listed = await t.waitFor("/permissions remove <n>");
    expect(listed).toContain(
      `allow run_shell_command(touch:*)  — ${path.join(sb.project, ".agent0", "settings.json")}`,
    );
    t.send("/permissions remove 1");
    await t.waitFor("Removed run_shell_command(touch:*)");
    const after = JSON.parse(fs.readFileSync(path.join(sb.project, ".agent0", "settings.json"), "utf8")) as {
      permissions: { allow: string[] };
    };
    expect(after.permissions.allow).toEqual([]);
  });

  it('headless: --allowedTools "Bash(touch:*)" runs its prefix unasked and refuses the compound one', async () => {
    fake = await startFakeOllama({
      models: [MODEL],
      replies: [shellCall("touch headless.txt"), { steps: [{ text: "Done." }] }],
    });
    const ok = await runHeadless(sb, [
      "-p",
      "make a file",
      "--host",
      fake.url,
      "--model",
      MODEL.name,
      "--allowedTools",
      "Bash(touch:*)",
    ]);
    expect(ok.stderr).toBe("");
    expect(ok.code).toBe(0);
    expect(fs.existsSync(path.join(sb.project, "headless.txt"))).toBe(true);

    fake.setReplies([shellCall("touch a.txt; touch b.txt && rm -f headless.txt"), { steps: [{ text: "Done." }] }]);
    const refused = await runHeadless(sb, [
      "-p",
      "again",
      "--host",
      fake.url,
      "--model",
      MODEL.name,
      "--allowedTools",
      "Bash(touch:*)",
    ]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("denied: run_shell_command");
    expect(fs.existsSync(path.join(sb.project, "headless.txt"))).toBe(true);
    expect(fs.existsSync(path.join(sb.project, "a.txt"))).toBe(false);
  });

  it("headless: a deny rule holds even under --yolo, and a project's deny counts without trust", async () => {
    writeJson(path.join(sb.project, ".claude", "settings.json"), {
      permissions: { deny: ["Bash(touch:*)", "Read(.env)"] },
    });
    fs.writeFileSync(path.join(sb.project, ".env"), "TOKEN=canary-value-123\n");
    fake = await startFakeOllama({
      models: [MODEL],
      replies: [
        {
          steps: [
            {
              toolCalls: [
                { name: "run_shell_command", arguments: { command: "touch denied.txt" } },
                { name: "read_file", arguments: { path: ".env" } },
              ],
            },
          ],
        },
        { steps: [{ text: "Could not." }] },
      ],
    });
    const r = await runHeadless(sb, ["-p", "go", "--host", fake.url, "--model", MODEL.name, "--yolo"]);
    expect(fs.existsSync(path.join(sb.project, "denied.txt"))).toBe(false);
    const tools = fake.chats[1]!.messages.filter((m) => m.role === "tool").map((m) => m.content);
    expect(tools[0]).toContain("Refused by the permission rule deny Bash(touch:*)");
    expect(tools[1]).toContain("Refused by the permission rule deny Read(.env)");
    expect(JSON.stringify(fake.chats[1]!.messages)).not.toContain("canary-value-123");
    expect(r.code).toBe(0);
  });

  it("headless: a project's allow rule does not count before the project is trusted", async () => {
    writeJson(path.join(sb.project, ".claude", "settings.json"), { permissions: { allow: ["Bash(touch:*)"] } });
    fake = await startFakeOllama({
      models: [MODEL],
      replies: [shellCall("touch planted.txt"), { steps: [{ text: "Done." }] }],
    });
    const r = await runHeadless(sb, ["-p", "go", "--host", fake.url, "--model", MODEL.name]);
    expect(r.stderr).toContain(".claude/settings.json is not trusted in this project");
    expect(r.stderr).toContain("denied: run_shell_command");
    expect(fs.existsSync(path.join(sb.project, "planted.txt"))).toBe(false);
  });

  // Issue 43, check 6: a redirection into the project keeps the rule matching (Claude Code's 1.0.123
  // changelog: "Bash(python:*) matches python script.py > output.txt"); one out of the project or
  // into .git, and an option that writes (gemini-cli#29189: `git diff --output`), still ask. The
  // canaries are the files the refused commands would write.
  it("headless: a redirection into the project runs under its allow rule; out of it, into .git or via --output asks", async () => {
    writeJson(configFile(), { permissions: { allow: ["run_shell_command(echo ALLOWED:*)"] } });
    fs.mkdirSync(path.join(sb.project, ".git", "hooks"), { recursive: true });
    const outsideCanary = path.join(sb.project, "..", "x.txt");
    const hookCanary = path.join(sb.project, ".git", "hooks", "pre-commit");
    const calls = (...commands: string[]) => ({
      steps: [{ toolCalls: commands.map((command) => ({ name: "run_shell_command", arguments: { command } })) }],
    });
    fake = await startFakeOllama({
      models: [MODEL],
      replies: [calls("echo ALLOWED 1 > a1.txt"), { steps: [{ text: "Done." }] }],
    });
    const args = () => ["-p", "go", "--host", fake!.url, "--model", MODEL.name];
    const ok = await runHeadless(sb, args());
    expect(ok.stderr).toBe("");
    expect(ok.code).toBe(0);
    expect(fs.readFileSync(path.join(sb.project, "a1.txt"), "utf8")).toBe("ALLOWED 1\n");

    fake.setReplies([
      calls("echo ALLOWED > ../x.txt", "echo ALLOWED > .git/hooks/pre-commit"),
      { steps: [{ text: "Done." }] },
    ]);
    const refused = await runHeadless(sb, args());
    expect(refused.stderr.match(/denied: run_shell_command/g)).toHaveLength(2);
    expect(fs.existsSync(outsideCanary)).toBe(false);
    expect(fs.existsSync(hookCanary)).toBe(false);
  });

  it("headless: under Bash(git diff:*), `git diff --output=../x` asks (gemini-cli#29189)", async () => {
    execFileSync("git", ["init", "-q"], { cwd: sb.project });
    fake = await startFakeOllama({
      models: [MODEL],
      replies: [shellCall("git diff --output=../x"), { steps: [{ text: "Done." }] }],
    });
    const diffCanary = path.join(sb.project, "..", "x");
    const diff = await runHeadless(sb, [
      ...["-p", "go", "--host", fake.url, "--model", MODEL.name],
      ...["--allowedTools", "Bash(git diff:*)"],
    ]);
    expect(diff.stderr).toContain("denied: run_shell_command");
    expect(fs.existsSync(diffCanary)).toBe(false);
  });
});
