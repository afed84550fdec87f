// What the session-safety tests share: the model, the saved-session line, and reading a session
// file or a conversation as the server received it.
import { loadSession } from "../../src/session/load.js";
import type { WireMessage } from "../fakes/ollama-server.js";

export const MODEL = { name: "qwen3:8b", contextLength: 40960 };
export const SAVED_LINE = /Session (\S+) saved — resume with: agent0 --resume (\S+)/;

export const lastUser = (messages: WireMessage[]) =>
  [...messages].reverse().find((m) => m.role === "user")?.content ?? "";
export const dialogue = (messages: WireMessage[]) =>
  messages.filter((m) => m.role !== "system").map((m) => `${m.role}: ${m.content}`);

export function loaded(file: string) {
  const s = loadSession(file);
  if (!s.ok) throw new Error(s.error);
  return s;
}
