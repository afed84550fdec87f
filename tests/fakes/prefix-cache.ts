// A server's prompt cache, simulated for the fake Ollama: like llama.cpp's single slot (the cache
// Ollama's runner keeps per loaded model), the next prompt reuses the longest common prefix of the
// previous one and evaluates the rest. Prefill costs `msPerToken` per uncached token, charged
// before the first byte as a real server does. A different num_ctx reloads the model and empties
// the cache (ollama-wire.md §6.5). Counts are reported as Ollama does: prompt_eval_count is the
// whole prompt, prompt_eval_cached_count the part read from the cache (ollama/ollama#17943).

/** What the cache did for one chat. */
export interface CacheUse {
  /** Tokens of the whole prompt (the rendered tools and messages / 4). */
  total: number;
  /** Of those, read from the cache. */
  cached: number;
  /** Simulated prefill time: the uncached tokens × msPerToken. */
  prefillMs: number;
  /** The model was (re)loaded for this chat: first use, or a different num_ctx. */
  reloaded: boolean;
}

export interface PrefixCacheOptions {
  /** Simulated prefill cost per uncached prompt token (a laptop GPU: a few ms for a 7B model). */
  msPerToken: number;
}

/** The prompt as one string, tools first (where chat templates put them), then each message. */
export function renderPrompt(tools: unknown, messages: unknown[]): string {
  return JSON.stringify(tools ?? []) + messages.map((m) => JSON.stringify(m)).join("");
}

export class PrefixCache {
  private previous = "";
  private numCtx: unknown = undefined;
  constructor(readonly opts: PrefixCacheOptions) {}

  use(tools: unknown, messages: unknown[], numCtx: unknown): CacheUse {
    const prompt = renderPrompt(tools, messages);
    const reloaded = this.numCtx === undefined || numCtx !== this.numCtx;
    if (reloaded) this.previous = "";
    this.numCtx = numCtx;
    let common = 0;
    const max = Math.min(prompt.length, this.previous.length);
    while (common < max && prompt.charCodeAt(common) === this.previous.charCodeAt(common)) common++;
    this.previous = prompt;
    const total = Math.max(1, Math.ceil(prompt.length / 4));
    const cached = Math.min(total - 1, Math.floor(common / 4));
    return { total, cached, prefillMs: (total - cached) * this.opts.msPerToken, reloaded };
  }
}
