// Shared by the user's-words tests (user-words*.test.ts): the Ollama model they use and the
// arguments that point agent0 at a fake OpenAI-compatible server.
import type { FakeOpenAI } from "../fakes/openai-server.js";

export const MODEL = { name: "qwen3:8b", contextLength: 40960 };

export const openaiArgs = (fake: FakeOpenAI, model: string) => [
  "--provider",
  "openai",
  "--base-url",
  `${fake.url}/v1`,
  "--model",
  model,
];
