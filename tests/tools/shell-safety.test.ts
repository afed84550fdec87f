import { describe, expect, it } from "vitest";
import { isReadOnlyCommand, splitWords } from "../../src/tools/shell/safety.js";

describe("isReadOnlyCommand", () => {
  it.each([
    "ls",
    "ls -la src",
    "cat package.json",
    "head -n 20 README.md",
    "tail -n 5 log.txt",
    "wc -l src/main.ts",
    "pwd",
    "echo hello",
    "grep -rn 'foo$' src",
    'grep -n "two words" a.txt',
    "cat 'a;b'",
    "rg -n parseArgs src",
    "find . -name '*.ts' -type f",
    "git status",
    "git diff --stat",
    "git log --oneline -n 5",
    "git show HEAD",
    "git branch",
    "git branch -a -v",
    "git branch --list 'feat/*'",
    "git remote -v",
  ])("allows %s", (cmd) => {
    expect(isReadOnlyCommand(cmd)).toBe(true);
  });

  it.each([
    ["chaining with ;", "ls; rm -rf x"],
    ["&&", "cat a && rm b"],
    ["||", "ls || rm b"],
    ["a pipe", "ls | sh"],
    ["background &", "ls & rm x"],
    ["command substitution", "ls $(rm x)"],
    ["backticks", "ls `rm x`"],
    ["substitution inside double quotes", 'echo "$(rm x)"'],
    ["backticks inside double quotes", 'echo "`rm x`"'],
    ["parameter expansion", "ls ${IFS}"],
    ["a variable", "cat $HOME/.ssh/id_rsa"],
    ["output redirection", "ls > f"],
    ["append redirection", "echo x >> f"],
    ["input redirection", "cat < f"],
    ["process substitution", "cat <(rm x)"],
    ["a newline", "ls\nrm x"],
    ["a carriage return", "ls\rrm x"],
    ["a newline inside quotes", "echo 'a\nb'"],
    ["a subshell", "(rm x)"],
    ["an escaped metacharacter", "ls \\; rm x"],
    ["an unquoted glob that could expand into options", "rg foo *"],
    ["tilde expansion", "cat ~/.bashrc"],
    ["an unclosed quote", "echo 'oops"],
    ["an env prefix", "FOO=1 ls"],
    ["LD_PRELOAD", "LD_PRELOAD=./evil.so cat a"],
    ["a path to a binary", "/bin/ls"],
    ["a command not on the list", "rm -rf x"],
    ["sh -c", "sh -c ls"],
    ["find -delete", "find . -delete"],
    ["find -exec", "find . -exec rm {} +"],
    ["find -execdir", "find . -execdir rm x"],
    ["find -fprint", "find . -fprint out"],
    ["rg --pre", "rg --pre ./evil.sh foo"],
    ["rg --pre=", "rg --pre=./evil.sh foo"],
    ["git diff --output", "git diff --output=/etc/x"],
    ["git log --output as a quoted word", "git log '--output=x'"],
    ["git --ext-diff", "git diff --ext-diff"],
    ["git -c before the subcommand", "git -c core.pager=evil log"],
    ["git -C", "git -C /tmp status"],
    ["git --git-dir", "git --git-dir=/x status"],
    ["git commit", "git commit -m x"],
    ["git push", "git push"],
    ["git grep (can open a pager command)", "git grep -Oevil foo"],
    ["git branch creating a branch", "git branch newbranch"],
    ["git branch -D", "git branch -D main"],
    ["git branch -m", "git branch -m a b"],
    ["git remote add", "git remote add o url"],
    ["an empty command", "   "],
    ["a fullwidth semicolon", "ls；rm x"],
    ["a comment hiding nothing but still refused", "ls # hi"],
  ])("refuses %s", (_what, cmd) => {
    expect(isReadOnlyCommand(cmd)).toBe(false);
  });
});

describe("splitWords", () => {
  it("removes quotes like the shell", () => {
    expect(splitWords(`grep -n 'a b' "c d"e f`)).toEqual(["grep", "-n", "a b", "c de", "f"]);
    expect(splitWords("echo ''")).toEqual(["echo", ""]);
  });
});
