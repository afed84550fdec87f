import { current, isDraft } from "immer";

/** Cmds leave immer's produce: they must hold plain values, never drafts (revoked afterwards). */
export function plain<T>(value: T): T {
  return isDraft(value) ? (current(value as never) as T) : value;
}
