// What the doctor tests share (doctor.test.ts, doctor-tui.test.ts, doctor-pid-notice.test.ts): a
// fake Ollama with the model, named by OLLAMA_HOST and the user's config.
import { startFakeOllama, type FakeOllama } from "../fakes/ollama-server.js";
import { userConfigFile, writeJson, type Sandbox } from "./harness.js";

export const MODEL = "qwen3:8b";

export async function withServer(sb: Sandbox): Promise<FakeOllama> {
  const fake = await startFakeOllama({ models: [{ name: MODEL, contextLength: 40960 }] });
  sb.env.OLLAMA_HOST = fake.url;
  writeJson(userConfigFile(sb), { model: MODEL });
  return fake;
}
