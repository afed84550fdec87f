// The first part of a call written as text: its name. A name counts only when it is one of this
// run's tools, written exactly, in another case, or inside a namespace the chat templates use
// (`functions.read_file`, `default_api.read_file`, `tools.read_file`, Kimi's `functions.read_file:0`,
// FunctionGemma's `call:read_file`).

/** A tool as the recogniser sees it: its name, and its JSON schema when the caller has one. */
export interface ToolShape {
  name: string;
  parameters?: Record<string, unknown>;
}

export interface NameBook {
  tools: readonly ToolShape[];
  /** The run's tool named by `raw`, or undefined. */
  resolve(raw: string): ToolShape | undefined;
}

/** `functions.read_file:0` -> `read_file`: the name without namespace or call index. */
export function bareName(raw: string): string {
  return raw
    .trim()
    .replace(/^["'`]|["'`]$/g, "")
    .replace(/:\d+$/, "")
    .replace(/^(?:[A-Za-z_][\w-]*[.:])+/, "");
}

export function nameBook(tools: readonly (string | ToolShape)[]): NameBook {
  const shapes = tools.map((t) => (typeof t === "string" ? { name: t } : t));
  const exact = new Map(shapes.map((t) => [t.name, t]));
  const folded = new Map<string, ToolShape>();
  for (const t of shapes) if (!folded.has(t.name.toLowerCase())) folded.set(t.name.toLowerCase(), t);
  const lookup = (n: string) => exact.get(n) ?? folded.get(n.toLowerCase());
  return {
    tools: shapes,
    resolve(raw) {
      const name = raw.trim();
      if (name === "") return undefined;
      // A tool's own name may hold dots or colons (an MCP tool): tried whole before the namespace goes.
      return lookup(name) ?? lookup(name.replace(/:\d+$/, "")) ?? lookup(bareName(name));
    },
  };
}
