// "Did you mean": when the server does not have the model asked for, the installed names nearest
// to it, so a typo or a missing tag (`llama3` for `llama3:8b`) is one step from fixed.
import type { Provider } from "../providers/types.js";
import { editDistance } from "../render/edit-distance.js";

/** Installed names close to `wanted`, nearest first (at most `max`). */
export function nearestModelNames(wanted: string, installed: string[], max = 3): string[] {
  const w = wanted.toLowerCase();
  const scored = installed.map((name) => {
    const n = name.toLowerCase();
    const base = n.split(":")[0]!;
    // The same model with its tag left off (Ollama then looks for `:latest`).
    const tagOnly = !w.includes(":") && base === w ? 0.5 : Infinity;
    return { name, score: Math.min(tagOnly, editDistance(w, n), editDistance(w, base) + 0.25) };
  });
  // Only the nearest: a closer name makes a farther one noise.
  const best = Math.min(...scored.map((s) => s.score));
  const limit = Math.min(Math.max(2, Math.floor(w.length / 3)), best + 0.5);
  return scored
    .filter((s) => s.score <= limit)
    .sort((a, b) => a.score - b.score || a.name.localeCompare(b.name))
    .slice(0, max)
    .map((s) => s.name);
}

/**
 * The hint for a model the server does not have: the nearest installed names and `/model`, then
 * the provider's own advice (e.g. `ollama pull`). The list is best effort: without it, the advice.
 */
export async function modelNotFoundHint(
  provider: Provider,
  wanted: string,
  advice: string | undefined,
  signal: AbortSignal,
): Promise<string | undefined> {
  let names: string[] = [];
  try {
    names = nearestModelNames(
      wanted,
      (await provider.listModels(signal)).map((m) => m.name),
    );
  } catch {
    return advice;
  }
  if (names.length === 0) return advice;
  const list = names.length === 1 ? names[0]! : `${names.slice(0, -1).join(", ")} or ${names.at(-1)!}`;
  const tail = advice ? `; else ${advice.charAt(0).toLowerCase()}${advice.slice(1)}` : "";
  return `Did you mean ${list}? /model lists the installed models${tail}.`;
}
