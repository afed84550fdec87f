// Ctrl+G: the input edited in the user's own editor ($VISUAL, then $EDITOR, as Claude Code and
// Codex do). The terminal is handed over for the editor's whole life (terminal.ts suspend/resume).
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { splitWords } from "../../safety/shell-words.js";

export type EditorOutcome = { ok: true; text: string } | { ok: false; error: string };

/** The editor the user asked for: $VISUAL, then $EDITOR, then vi (what git and crontab fall back to). */
export function editorOf(env: NodeJS.ProcessEnv): string {
  return env.VISUAL?.trim() || env.EDITOR?.trim() || "vi";
}

/**
 * How to start `editor` on `file`. Plain words (`code --wait`) are run as they are; anything the
 * shell must read (quotes with `$`, `~`, pipes) goes through `sh -c` with the file as "$1", the
 * way git runs core.editor.
 */
export function editorArgv(editor: string, file: string): { file: string; args: string[] } {
  const words = splitWords(editor);
  if (words && words.length > 0) return { file: words[0]!, args: [...words.slice(1), file] };
  return { file: "/bin/sh", args: ["-c", `${editor} "$1"`, "sh", file] };
}

/**
 * Writes `text` to a private temp file, runs the editor on it with the terminal, and reads it
 * back. The editor owns the keyboard meanwhile: its Ctrl+C must not end agent0, so SIGINT is
 * held for as long as it runs. The file's last newline (editors add one) is dropped.
 */
export async function editText(text: string, env: NodeJS.ProcessEnv = process.env): Promise<EditorOutcome> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "agent0-edit-"));
  const file = path.join(dir, "prompt.md");
  const editor = editorOf(env);
  const ignore = () => {};
  process.on("SIGINT", ignore);
  try {
    fs.writeFileSync(file, text === "" ? "" : `${text}\n`, { mode: 0o600 });
    const { file: cmd, args } = editorArgv(editor, file);
    const ended = await new Promise<{ code: number | null; signal: string | null } | { error: string }>((resolve) => {
      const child = spawn(cmd, args, { stdio: "inherit", env });
      child.on("error", (err: NodeJS.ErrnoException) =>
        resolve({ error: err.code === "ENOENT" ? `${cmd} was not found` : err.message }),
      );
      child.on("exit", (code, signal) => resolve({ code, signal }));
    });
    if ("error" in ended)
      return { ok: false, error: `The editor did not start (${ended.error}); set $VISUAL or $EDITOR.` };
    if (ended.code !== 0) {
      const how = ended.signal ? `was stopped by ${ended.signal}` : `exited with ${ended.code}`;
      return { ok: false, error: `The editor (${editor}) ${how}: the input is kept as it was.` };
    }
    return { ok: true, text: fs.readFileSync(file, "utf8").replace(/\r?\n$/, "") };
  } finally {
    process.off("SIGINT", ignore);
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
