// Words the user wrote that did not go (queued behind a stopped run, steering it never took, a
// prompt refused before the model saw it) come back into the input box: never dropped, never over
// what was typed since.
import type { Model } from "../model.js";

/** `words` back in the input, in the order written, ahead of what is typed there now; cursor at the end. */
export function putBack(model: Model, words: readonly string[]): void {
  // Nothing to give back leaves the input, and the cursor in it, as the user has them.
  if (!words.some((w) => w.trim())) return;
  const text = [...words, model.input.text].filter((t) => t.trim()).join("\n\n");
  model.input = { text, cursor: text.length };
}
