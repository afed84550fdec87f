// `agent0 review`: the change is read by agent0 and sent to the model with the request; the
// review comes back as one JSON object (exit 0) for scripts and CI. Issue 42, check 5. The targets
// follow Codex CLI's /review presets as its docs give them ("Review uncommitted changes"; "Review
// against a base branch … finds the merge base, diffs your work"; `codex review --base main`).
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { startFakeOllama, type FakeOllama } from "../fakes/ollama-server.js";
import { eachTest, runHeadless, type Sandbox } from "./harness.js";

const MODEL = { name: "qwen3:8b", contextLength: 40960 };
const REVIEW = "**Must fix**\n- calc.js:2 — subtracts where it should add — use `a + b`.";

let sb: Sandbox;
let ollama: FakeOllama | undefined;
eachTest(
  (s) => (sb = s),
  () => [ollama],
);

function git(...args: string[]): string {
  return execFileSync("git", args, { cwd: sb.project, env: sb.env, encoding: "utf8" });
}

function repoWithStagedChange(): void {
  git("init", "-q", "-b", "main");
  git("config", "user.email", "t@example.com");
  git("config", "user.name", "t");
  fs.writeFileSync(path.join(sb.project, "calc.js"), "export function add(a, b) {\n  return a + b;\n}\n");
  git("add", "calc.js");
  git("commit", "-q", "-m", "add");
  fs.writeFileSync(path.join(sb.project, "calc.js"), "export function add(a, b) {\n  return a - b;\n}\n");
  git("add", "calc.js");
  // An unstaged change too: --staged must leave it out.
  fs.writeFileSync(path.join(sb.project, "notes.txt"), "untracked\n");
}

const userText = (o: FakeOllama) =>
  o.chats[0]!.messages.filter((m) => m.role === "user")
    .map((m) => m.content ?? "")
    .join("\n");

describe("agent0 review", () => {
  it("sends the staged diff to the model and prints the review as one JSON object", async () => {
    repoWithStagedChange();
    ollama = await startFakeOllama({ models: [MODEL], replies: [{ steps: [{ text: REVIEW }] }] });
    const r = await runHeadless(sb, ["review", "--staged", "--json", "--host", ollama.url, "--model", MODEL.name]);
    expect(r.stderr).not.toMatch(/error/i);
    expect(r.code).toBe(0);
    const lines = r.stdout.trim().split("\n");
    expect(lines).toHaveLength(1);
    const out = JSON.parse(lines[0]!) as { answer: string; model: string; reason: string };
    expect(out.answer).toBe(REVIEW);
    expect(out.model).toBe(MODEL.name);
    expect(out.reason).toBe("complete");
    const sent = userText(ollama);
    expect(sent).toContain("Review the staged changes");
    expect(sent).toContain("-  return a + b;\n+  return a - b;");
    expect(sent).not.toContain("notes.txt");
  });

  it("reviews a branch against its base, and says so when there is nothing to review", async () => {
    repoWithStagedChange();
    git("commit", "-q", "-m", "subtract");
    git("checkout", "-q", "-b", "feature");
    fs.writeFileSync(path.join(sb.project, "calc.js"), "export const add = (a, b) => a + b;\n");
    git("commit", "-q", "-am", "arrow");
    ollama = await startFakeOllama({ models: [MODEL], replies: [{ steps: [{ text: "Looks good." }] }] });
    const flags = ["--json", "--host", ollama.url, "--model", MODEL.name];
    const clean = await runHeadless(sb, ["review", ...flags]);
    expect(clean.code).toBe(0);
    expect(JSON.parse(clean.stdout)).toEqual({ answer: null, note: expect.stringMatching(/nothing to review/) });
    expect(ollama.chats).toHaveLength(0);

    const r = await runHeadless(sb, ["review", "--base", "main", ...flags]);
    expect(r.code).toBe(0);
    expect((JSON.parse(r.stdout) as { answer: string }).answer).toBe("Looks good.");
    const sent = userText(ollama);
    expect(sent).toContain("Review this branch against main");
    expect(sent).toContain("+export const add = (a, b) => a + b;");
  });
});
