// Whether a prompt fits the engine's window, counted as the engine will lay it out (the model's chat
// template with the tools written in), before a token is evaluated. node-llama-cpp keeps a tenth of
// the window free for the reply (LlamaChat's defaultContextShiftOptions) and, when the prompt does
// not fit that, throws "The default context shift strategy did not return a history that fits the
// context size": agent0 says it first, with both figures, in words the overflow recovery reads
// (providers/overflow.ts).

/* eslint-disable @typescript-eslint/no-explicit-any -- node-llama-cpp's types are not available at build time */
export interface PromptFit {
  /** The prompt's tokens. */
  tokens: number;
  /** The window the context was created with. */
  window: number;
  /** What the engine lets a prompt take of it. */
  room: number;
}

/** `chat` is a LlamaChat; `history` and `functions` as generateResponse takes them. */
export function promptFit(chat: any, history: any[], functions: Record<string, unknown> | undefined): PromptFit {
  const { contextText } = chat.chatWrapper.generateContextState({
    chatHistory: history,
    availableFunctions: functions,
  });
  const tokens = (contextText.tokenize(chat.model.tokenizer) as unknown[]).length;
  const window = chat.sequence.context.contextSize as number;
  return { tokens, window, room: window - Math.max(1, Math.floor(window / 10)) };
}
/* eslint-enable @typescript-eslint/no-explicit-any */

/** The refusal, figures first; providers/overflow.ts reads its figures back. */
export function promptTooLong(fit: PromptFit): string {
  const n = (x: number) => x.toLocaleString("en-US");
  return (
    `The prompt (${n(fit.tokens)} tokens) exceeds the model's context window (${n(fit.window)} tokens): ` +
    `the engine keeps ${n(fit.window - fit.room)} of them for the reply, so a prompt may take ${n(fit.room)}.`
  );
}
