// `@path` mentions in a message: pure, shared by the TUI (highlighting, completion) and the
// main thread (attaching the files, also for headless -p).

/** Every `@token` that starts the text or follows whitespace (so mail@host is none), without trailing punctuation. */
export function mentionsIn(text: string): string[] {
  return [...text.matchAll(/(?:^|\s)@([^\s@]+)/g)].map((m) => m[1]!.replace(/[.,;:!?)\]'"]+$/, "")).filter(Boolean);
}
