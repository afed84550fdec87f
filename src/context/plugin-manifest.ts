// `plugin.json` as Agent Plugins 1.0 defines it (agent-plugins-spec spec/1.0.0.md §5 and
// schemas/1.0.0/plugin.schema.json): a closed object whose `$schema` names the version. An unknown
// top-level field is reported and ignored — never given a meaning, so a manifest cannot slip in
// `mcpServers`, `hooks` or `commands` the way other formats allow — and a non-object `extensions`
// likewise; every other violation rejects the plugin.

export const PLUGIN_SCHEMA_1_0 = "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json";
export const MCP_SCHEMA_1_0 = "https://agent-plugins.org/schemas/1.0.0/mcp.schema.json";

export interface PluginManifest {
  name: string;
  version?: string;
  description?: string;
  author?: { name?: string; email?: string; url?: string };
  homepage?: string;
  repository?: string;
  license?: string;
  keywords?: string[];
  /** Client namespaces the manifest carries data for (agent0 implements none; listed in /plugins). */
  extensions: string[];
}

export type ParsedManifest = { ok: true; manifest: PluginManifest; warnings: string[] } | { ok: false; error: string };

const KNOWN: ReadonlySet<string> = new Set([
  "$schema",
  "name",
  "version",
  "description",
  "author",
  "homepage",
  "repository",
  "license",
  "keywords",
  "extensions",
]);
const STRING_FIELDS = ["version", "description", "homepage", "repository", "license"] as const;
const AUTHOR_FIELDS: ReadonlySet<string> = new Set(["name", "email", "url"]);

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** §5.5: 1–64 of `a-z 0-9 - .`, alphanumeric at both ends, no `--` or `..` (so never a path). */
export function pluginNameProblem(name: string): string | undefined {
  if (name.length < 1 || name.length > 64) return "must be 1 to 64 characters";
  if (!/^[a-z0-9](?:[a-z0-9.-]*[a-z0-9])?$/.test(name))
    return "may hold only a-z, 0-9, - and ., starting and ending with a letter or digit";
  if (name.includes("--") || name.includes("..")) return 'may not hold "--" or ".."';
  return undefined;
}

/** The manifest's text, read and judged; `file` names it in every message. */
export function parsePluginManifest(file: string, text: string): ParsedManifest {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    return { ok: false, error: `${file}: not valid JSON (${(err as Error).message})` };
  }
  if (!isObject(raw)) return { ok: false, error: `${file}: expected a JSON object` };
  const warnings: string[] = [];
  for (const key of Object.keys(raw))
    if (!KNOWN.has(key)) warnings.push(`${file}: ${key}: not a field of Agent Plugins 1.0 — ignored`);
  if (raw.$schema !== PLUGIN_SCHEMA_1_0)
    return {
      ok: false,
      error:
        raw.$schema === undefined
          ? `${file}: $schema is missing (Agent Plugins 1.0 writes "${PLUGIN_SCHEMA_1_0}")`
          : `${file}: $schema ${JSON.stringify(raw.$schema)} is not an Agent Plugins version agent0 reads (1.0.0)`,
    };
  if (typeof raw.name !== "string") return { ok: false, error: `${file}: name: expected a string` };
  const nameProblem = pluginNameProblem(raw.name);
  if (nameProblem) return { ok: false, error: `${file}: name ${JSON.stringify(raw.name)} ${nameProblem}` };
  const manifest: PluginManifest = { name: raw.name, extensions: [] };
  for (const field of STRING_FIELDS) {
    const value = raw[field];
    if (value === undefined) continue;
    if (typeof value !== "string") return { ok: false, error: `${file}: ${field}: expected a string` };
    manifest[field] = value;
  }
  const author = authorOf(file, raw.author);
  if (typeof author === "string") return { ok: false, error: author };
  if (author) manifest.author = author;
  if (raw.keywords !== undefined) {
    if (!Array.isArray(raw.keywords) || !raw.keywords.every((k) => typeof k === "string"))
      return { ok: false, error: `${file}: keywords: expected a list of strings` };
    manifest.keywords = raw.keywords as string[];
  }
  if (raw.extensions !== undefined) {
    if (!isObject(raw.extensions)) warnings.push(`${file}: extensions: expected an object — ignored`);
    else {
      for (const [ns, value] of Object.entries(raw.extensions))
        if (!isObject(value)) return { ok: false, error: `${file}: extensions.${ns}: expected an object` };
      manifest.extensions = Object.keys(raw.extensions);
    }
  }
  return { ok: true, manifest, warnings };
}

function authorOf(file: string, raw: unknown): PluginManifest["author"] | string | undefined {
  if (raw === undefined) return undefined;
  if (!isObject(raw)) return `${file}: author: expected an object with name, email and url`;
  for (const [key, value] of Object.entries(raw)) {
    if (!AUTHOR_FIELDS.has(key)) return `${file}: author.${key}: not a field of author (name, email, url)`;
    if (typeof value !== "string") return `${file}: author.${key}: expected a string`;
  }
  return raw as PluginManifest["author"];
}
