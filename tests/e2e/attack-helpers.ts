// What the attack tests share: a scripted model's tool calls, what reached the model, a hostile repository's git.
import { execFileSync } from "node:child_process";
import type { FakeOllama } from "../fakes/ollama-server.js";

export { pidsWith } from "../tools/ctx.js";

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
