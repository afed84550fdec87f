// What the background-wait tests share (background-wait.test.ts, background-wait-default.test.ts):
// the model, its first reply (start `sleep 3; echo done` in the background), the last tool result a
// request carried, and the headless run.
import type { FakeOllama, RecordedChat, Reply } from "../fakes/ollama-server.js";
import { runHeadless, type Sandbox } from "./harness.js";

export const MODEL = { name: "qwen3:8b", contextLength: 40960 };
export const START: Reply = {
  steps: [
    {
      toolCalls: [{ name: "run_shell_command", arguments: { command: "sleep 3; echo done", run_in_background: true } }],
    },
  ],
};
export const lastToolResult = (chat: RecordedChat) =>
  [...chat.messages].reverse().find((m) => m.role === "tool")?.content ?? "";
export const run = (sb: Sandbox, fake: FakeOllama) =>
  runHeadless(sb, ["-p", "run it and tell me", "--host", fake.url, "--model", MODEL.name, "--yolo"], 60_000);
