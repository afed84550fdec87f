// What the fault-injection tests share (faults.test.ts, faults-tui.test.ts, worker-death.test.ts):
// the model, a short stream idle timeout, and reading back the one session file.
import fs from "node:fs";
import path from "node:path";
import { expect } from "vitest";
import type { ConversationMessage } from "../../src/protocol/conversation.js";
import { loadSession } from "../../src/session/writer.js";
import { sessionFiles, type Sandbox } from "./harness.js";

export const MODEL = "qwen3:8b";

// The partial text goes out first; the fault comes a moment later, as a real failure would
// (a reset arriving together with the data makes the kernel drop the unread data).
export const PAUSE = 150;

/** A short stream idle timeout, so a stalled server ends the request within the test. */
export function writeConfig(sb: Sandbox): void {
  const dir = path.join(sb.env.XDG_CONFIG_HOME!, "agent0");
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, "config.json"), JSON.stringify({ idleTimeoutMs: 1000 }));
}

export function onlySession(sb: Sandbox): { id: string; messages: ConversationMessage[] } {
  const files = sessionFiles(sb);
  expect(files).toHaveLength(1);
  const loaded = loadSession(files[0]!);
  if (!loaded.ok) throw new Error(`the session file does not load: ${loaded.error}`);
  expect(loaded.damaged).toEqual([]);
  // Token counts kept on answers are the status line's (tests/e2e/status-tokens.test.ts); here
  // only what was said matters.
  return { id: loaded.header.id, messages: loaded.messages.map(({ usage: _usage, ...m }) => m) };
}
