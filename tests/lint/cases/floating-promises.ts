// Lint cases for tests/lint/promises.test.ts: each function here breaks one promise rule, and
// `npm run lint` skips this folder (the test lints it on purpose).
async function save(): Promise<void> {}

export function dropsIt(): void {
  save();
}

export function voidsIt(): void {
  void save();
}

export function passesItAsAVoidCallback(): void {
  setTimeout(save, 10);
}

export async function awaitsANumber(): Promise<number> {
  return await 42;
}
