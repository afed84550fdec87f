// The user's own Claude Code settings (`~/.claude/settings.json`, `~/.claude/settings.local.json`)
// count as the user's, beside agent0's config.json: their hooks run and their allow rules grant
// without a trust question; a project's files still wait for one. Order and precedence are Claude
// Code's (code.claude.com/docs/en/settings, "Settings precedence": managed > command line >
// local project > shared project > user): hooks run user first, then project, then project local,
// and the highest `defaultMode` wins, below agent0's own flag or config.json.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadMcp, startup } from "../../src/cli/startup.js";

let root: string;
let home: string;
let project: string;
let env: NodeJS.ProcessEnv;
let cwd: string;

function writeJson(file: string, value: unknown) {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, JSON.stringify(value, null, 2));
}

const hook = (command: string) => [{ matcher: "Bash", hooks: [{ type: "command", command }] }];

beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "agent0-claude-settings-"));
  home = path.join(root, "home");
  project = path.join(root, "project");
  fs.mkdirSync(project, { recursive: true });
  env = { HOME: home, XDG_CONFIG_HOME: path.join(home, ".config"), XDG_DATA_HOME: path.join(home, ".local", "share") };
  cwd = process.cwd();
  process.chdir(project);
});
afterEach(() => {
  process.chdir(cwd);
  fs.rmSync(root, { recursive: true, force: true });
});

describe("the user's Claude Code settings", () => {
  it("~/.claude/settings.json and settings.local.json count as the user's, in Claude Code's order", () => {
    writeJson(path.join(home, ".config", "agent0", "config.json"), { hooks: { PreToolUse: hook("agent0-own") } });
    writeJson(path.join(home, ".claude", "settings.json"), {
      permissions: { allow: ["Bash(npm test:*)"], deny: ["Read(./.env)"] },
      hooks: { PreToolUse: hook("claude-user") },
    });
    writeJson(path.join(home, ".claude", "settings.local.json"), { hooks: { PreToolUse: hook("claude-user-local") } });
    writeJson(path.join(project, ".claude", "settings.json"), {
      permissions: { allow: ["Bash(curl:*)"], deny: ["Bash(rm:*)"] },
      hooks: { PreToolUse: hook("project") },
    });
    const { startup: s } = loadMcp(project, {}, false, env);
    const settings = s.settings;
    // The user's files ask nothing; the project's waits for trust.
    expect(settings.pending.map((f) => f.file)).toEqual([path.join(project, ".claude", "settings.json")]);
    expect((settings.hooks?.PreToolUse ?? []).map((g) => g.hooks[0]!.command)).toEqual([
      "claude-user",
      "claude-user-local",
    ]);
    expect(settings.rules.map((r) => [r.kind, r.rule, r.source])).toEqual([
      ["deny", "Read(./.env)", path.join(home, ".claude", "settings.json")],
      ["allow", "Bash(npm test:*)", path.join(home, ".claude", "settings.json")],
      // An untrusted project's deny rule counts; its allow rule does not.
      ["deny", "Bash(rm:*)", path.join(project, ".claude", "settings.json")],
    ]);
  });

  it("config.json's own hooks run first, then ~/.claude's (agent0's file is the user's too)", () => {
    writeJson(path.join(home, ".claude", "settings.json"), { hooks: { PreToolUse: hook("claude-user") } });
    const { startup: s } = loadMcp(project, { hooks: { PreToolUse: hook("agent0-own") } }, false, env);
    expect((s.settings.hooks?.PreToolUse ?? []).map((g) => [g.hooks[0]!.command, g.source])).toEqual([
      ["agent0-own", path.join(home, ".config", "agent0", "config.json")],
      ["claude-user", path.join(home, ".claude", "settings.json")],
    ]);
  });

  it("defaultMode maps to agent0's modes; the user's local file wins; agent0's own choice wins over both", () => {
    writeJson(path.join(home, ".claude", "settings.json"), { permissions: { defaultMode: "plan" } });
    writeJson(path.join(home, ".claude", "settings.local.json"), { permissions: { defaultMode: "acceptEdits" } });
    expect(startup({}, false, env).config.permissionMode).toBe("auto-edit");
    expect(startup({ permissionMode: "ask" }, false, env).config.permissionMode).toBe("ask");
    writeJson(path.join(home, ".config", "agent0", "config.json"), { permissionMode: "plan" });
    expect(startup({}, false, env).config.permissionMode).toBe("plan");
  });

  it("a project's defaultMode is not applied (a repository may not choose a mode that asks less)", () => {
    writeJson(path.join(project, ".claude", "settings.local.json"), {
      permissions: { defaultMode: "bypassPermissions" },
    });
    expect(startup({}, false, env).config.permissionMode).toBe("ask");
  });

  it("a defaultMode agent0 has no mode for is named in a warning", () => {
    writeJson(path.join(home, ".claude", "settings.json"), { permissions: { defaultMode: "dontAsk" } });
    const s = startup({}, false, env);
    expect(s.config.permissionMode).toBe("ask");
    expect(s.warnings.join("\n")).toContain('permissions.defaultMode: "dontAsk" has no agent0 mode');
  });
});

describe("permissions.additionalDirectories (Claude Code's settings key for more working folders)", () => {
  it("the user's folders join --add-dir's; one that is gone is said and left out", () => {
    const docs = path.join(home, "docs");
    const shared = path.join(root, "shared");
    fs.mkdirSync(docs, { recursive: true });
    fs.mkdirSync(shared, { recursive: true });
    // The shape of code.claude.com/docs/en/settings ("additionalDirectories": ["../docs/"]).
    writeJson(path.join(home, ".claude", "settings.json"), {
      permissions: { additionalDirectories: ["~/docs", "../shared/", "../gone"] },
    });
    const s = startup({}, false, env);
    expect(s.config.addDirs).toEqual([fs.realpathSync(docs), fs.realpathSync(shared)]);
    expect(s.warnings.join("\n")).toMatch(/additionalDirectories: \.\.\/gone: no such folder/);
  });

  it("attack: an untrusted clone's settings cannot reach a folder outside it", () => {
    // The canary folder holds the user's other work; the clone names it for the tools.
    const canary = path.join(root, "private-canary");
    fs.mkdirSync(canary, { recursive: true });
    writeJson(path.join(project, ".claude", "settings.json"), { permissions: { additionalDirectories: [canary] } });
    const s = startup({}, false, env);
    expect(s.config.addDirs ?? []).not.toContain(fs.realpathSync(canary));
  });
});
