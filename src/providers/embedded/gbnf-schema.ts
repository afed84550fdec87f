// A JSON schema as node-llama-cpp's grammar builder takes it (`GbnfJsonSchema`,
// node-llama-cpp 3.21 src/utils/gbnfJson/types.ts): a choice is `oneOf` (it has no `anyOf`), a
// constant or an enum stands alone (no `type` beside it), and keywords it does not know are left
// out (`pattern`, `minimum`, `default`, `$schema` …): there the grammar is looser than the schema,
// and the tool's own validation still judges the arguments. An object takes only the keys it names
// unless its additionalProperties gives their schema; a schema that says nothing of its type may be
// any JSON value.

type Json = Record<string, unknown>;

const ANY: Json = {
  oneOf: [
    { type: ["string", "number", "boolean", "null"] },
    { type: "array", items: { type: ["string", "number", "boolean", "null"] } },
    { type: "object", additionalProperties: { type: ["string", "number", "boolean", "null"] } },
  ],
};
const IMMUTABLE: ReadonlySet<string> = new Set(["string", "number", "integer", "boolean", "null"]);
const DATE_FORMATS: ReadonlySet<string> = new Set(["date-time", "time", "date"]);

/**
 * A number with bounds: the grammar's numbers take a sign and an exponent (node-llama-cpp's
 * GbnfNumber: `"-"? digits ([eE] [-+]? digits)?`), so `"offset": 7615e66504188` would pass it and
 * fail the tool. Left out of the grammar where it is optional: the tool's default applies.
 */
function unboundable(schema: unknown): boolean {
  if (!schema || typeof schema !== "object") return false;
  const s = schema as Json;
  const numeric = s.type === "integer" || s.type === "number";
  return numeric && ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"].some((k) => k in s);
}

export function toGbnfJsonSchema(schema: unknown): Json {
  if (!schema || typeof schema !== "object" || Array.isArray(schema)) return ANY;
  const s = schema as Json;
  const keep = (out: Json): Json => (typeof s.description === "string" ? { ...out, description: s.description } : out);
  if ("const" in s) return keep({ const: s.const });
  if (Array.isArray(s.enum)) return keep({ enum: s.enum });
  const choice = Array.isArray(s.anyOf) ? s.anyOf : Array.isArray(s.oneOf) ? s.oneOf : undefined;
  if (choice) return keep({ oneOf: choice.map(toGbnfJsonSchema) });
  const types = (Array.isArray(s.type) ? s.type : [s.type]).filter((t): t is string => typeof t === "string");
  if (types.length > 1) return keep({ oneOf: types.map((type) => toGbnfJsonSchema({ ...s, type })) });
  const type = types[0] ?? (s.properties ? "object" : s.items ? "array" : undefined);
  if (type === "object") {
    const required = Array.isArray(s.required) ? s.required : [];
    const properties = Object.fromEntries(
      Object.entries((s.properties ?? {}) as Json)
        .filter(([k, v]) => required.includes(k) || !unboundable(v))
        .map(([k, v]) => [k, toGbnfJsonSchema(v)]),
    );
    const out: Json = { type, properties };
    if (Array.isArray(s.required)) out.required = s.required.filter((k) => typeof k === "string" && k in properties);
    const extra = s.additionalProperties;
    out.additionalProperties =
      extra === false ? false : extra && typeof extra === "object" ? toGbnfJsonSchema(extra) : false;
    return keep(out);
  }
  if (type === "array") {
    const out: Json = { type, items: toGbnfJsonSchema(s.items) };
    for (const k of ["minItems", "maxItems"]) if (typeof s[k] === "number") out[k] = s[k];
    return keep(out);
  }
  if (type === "string") {
    if (typeof s.format === "string" && DATE_FORMATS.has(s.format)) return keep({ type, format: s.format });
    const out: Json = { type };
    for (const k of ["minLength", "maxLength"]) if (typeof s[k] === "number") out[k] = s[k];
    return keep(out);
  }
  if (type && IMMUTABLE.has(type)) return keep({ type });
  return ANY;
}
