// The same calls with their promises handled: tests/lint/promises.test.ts expects no problem here.
async function save(): Promise<void> {}

export function catchesIt(): void {
  save().catch(() => {});
}

export async function awaitsIt(): Promise<void> {
  await save();
}

export function handsItOn(): Promise<void> {
  return save();
}
