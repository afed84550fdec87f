// Whether an Ollama decodes under a JSON schema in `format`: structured outputs came in 0.5.0
// (ollama/ollama#7900); before, `format` took only "json" and a schema was refused with
// `invalid format: expected "json" or a JSON schema`. Its /api/version says which it is.
import type { ConstraintSupport } from "../types.js";

const SCHEMA_SINCE = [0, 5, 0];

export function ollamaTakesSchema(version: string): ConstraintSupport {
  const parts = version.split(/[.-]/).map((n) => Number.parseInt(n, 10) || 0);
  let older = false;
  for (let i = 0; i < SCHEMA_SINCE.length; i++) {
    const [a, b] = [parts[i] ?? 0, SCHEMA_SINCE[i]!];
    if (a !== b) {
      older = a < b;
      break;
    }
  }
  return older
    ? { supported: false, why: `Ollama ${version} takes a JSON schema in \`format\` only from 0.5.0` }
    : { supported: true, why: `Ollama ${version}` };
}
