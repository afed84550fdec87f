/** The default branch of an exhaustive switch: a new union member fails to compile here. */
export function assertNever(x: never): never {
  throw new Error(`unexpected value: ${JSON.stringify(x)}`);
}
