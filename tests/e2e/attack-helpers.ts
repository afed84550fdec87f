import fs from "node:fs";
// What the attack tests share: a scripted model's tool calls, what reached the model, a hostile repository's git.
import { execFileSync } from "node:child_process";
import type { FakeOllama } from "../fakes/ollama-server.js";

import { pidsWith } from "../tools/ctx.js";
export { pidsWith };

export const MODEL = "qwen3:8b";

/** Every tool result the model was sent, as one string: a canary found here reached the model. */
export const sentToModel = (fake: FakeOllama): string =>
  JSON.stringify(fake.chats.flatMap((c) => c.messages.filter((m) => m.role === "tool").map((m) => m.content)));

/** One model reply calling these tools at once. */
export const toolCalls = (...calls: { name: string; arguments: Record<string, unknown> }[]) => ({
  steps: [{ toolCalls: calls.map((c, i) => ({ id: `call_${i}`, ...c })) }],
});

/** A reply running each command as a run_shell_command call. */
export const shellCalls = (...commands: string[]) =>
  toolCalls(...commands.map((command) => ({ name: "run_shell_command", arguments: { command } })));

export function git(cwd: string, ...args: string[]): void {
  execFileSync("git", ["-c", "user.email=t@t", "-c", "user.name=t", "-c", "protocol.file.allow=always", ...args], {
    cwd,
    stdio: "ignore",
  });
}

/** A shell-safe rot13 of `s`, as `tr 'A-Za-z' 'N-ZA-Mn-za-m'` spells it. */
export function rot13(s: string): string {
  return s.replace(/[A-Za-z]/g, (c) => {
    const base = c <= "Z" ? 65 : 97;
    return String.fromCharCode(((c.charCodeAt(0) - base + 13) % 26) + base);
  });
}

/** A process that is there and not a zombie. */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return !/^\S+ \(.*\) Z/.test(fs.readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return false;
  }
}

/**
 * A command leaving three processes behind that escape its process group: `&`+setsid, a subshell,
 * nohup. They are found by their marks (the command runs in a pid namespace, where `$$` is not the host's pid).
 */
export function escapingChildren(tag: string): { command: string; marks: string[] } {
  const marks = ["601", "602", "603"].map((s) => `${s}.${process.pid}${tag}`);
  const command = [
    `setsid sh -c 'exec sleep ${marks[0]}' >/dev/null 2>&1 &`,
    `(sh -c 'exec sleep ${marks[1]}' >/dev/null 2>&1 &)`,
    `nohup sh -c 'exec sleep ${marks[2]}' >/dev/null 2>&1 &`,
  ].join("\n");
  return { command, marks };
}

/** The sleeps themselves, by their argv (NUL-separated in /proc/<pid>/cmdline): not a shell whose script names them. */
export const sleepsOf = (mark: string): number[] => pidsWith(`sleep\0${mark}\0`);
export const pidsOf = (marks: string[]) => marks.map((m) => sleepsOf(m)[0]).filter((p) => p !== undefined);
