// Arguments recovered from text are typed by how they were written, not by what the tool wants:
// XML parameters are all text ("5"), pythonic calls may quote a number. The tool's own JSON
// schema says what each one is; a value that plainly is that type is converted, and anything
// doubtful is left for the runner's validation to report.
import { isRecord } from "../../providers/lenient-json.js";

export function coerceArgs(
  args: Record<string, unknown>,
  parameters: Record<string, unknown>,
): Record<string, unknown> {
  const props = isRecord(parameters.properties) ? parameters.properties : {};
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(args)) {
    const schema = props[key];
    out[key] = isRecord(schema) ? coerce(value, schema.type) : value;
  }
  return out;
}

function coerce(value: unknown, type: unknown): unknown {
  const types = Array.isArray(type) ? type : [type];
  if (types.includes(typeof value === "number" && Number.isInteger(value) ? "integer" : typeof value)) return value;
  if (typeof value === "string") {
    const t = value.trim();
    if ((types.includes("integer") && /^-?\d+$/.test(t)) || (types.includes("number") && /^-?\d+(?:\.\d+)?$/.test(t))) {
      return Number(t);
    }
    if (types.includes("boolean") && /^(?:true|false)$/i.test(t)) return t.toLowerCase() === "true";
    if ((types.includes("array") && t.startsWith("[")) || (types.includes("object") && t.startsWith("{"))) {
      try {
        return JSON.parse(t);
      } catch {
        return value;
      }
    }
    return value;
  }
  if (types.includes("string") && (typeof value === "number" || typeof value === "boolean")) return String(value);
  return value;
}
