// A fake Ollama in its own process, so what it records does not count in the measured process's memory.
import { startFakeOllama } from "../.bench-build/fakes/ollama-server.js";

const text = process.argv[2] ?? "ok";
const fake = await startFakeOllama({ models: [{ name: "m" }], replies: () => ({ steps: [{ text }] }) });
process.stdout.write(JSON.stringify({ url: fake.url }) + "\n");
process.stdin.resume();
process.stdin.on("end", () => void fake.close().then(() => process.exit(0)));
