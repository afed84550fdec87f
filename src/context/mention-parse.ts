// `@path` and `@server:uri` mentions in a message: pure, shared by the TUI (highlighting,
// completion, sending) and the main thread (attaching the files, also for headless -p).

/**
 * Every `@token` that starts the text or follows whitespace (so mail@host is none), without trailing
 * punctuation; `@"a path with spaces"` is one token, taken as written.
 */
export function mentionsIn(text: string): string[] {
  return [...text.matchAll(/(?:^|\s)@(?:"([^"\n]+)"|([^\s@]+))/g)]
    .map((m) => m[1] ?? m[2]!.replace(/[.,;:!?)\]'"]+$/, ""))
    .filter(Boolean);
}

/** `path` as a mention mentionsIn reads back: quoted when it holds whitespace; none when it holds a quote. */
export function mentionOf(path: string): string | undefined {
  if (path.includes('"') || path.includes("\n")) return undefined;
  return /\s/.test(path) ? `@"${path}"` : `@${path}`;
}

/** An MCP resource named in a message as `@server:uri`. */
export interface ResourceMention {
  server: string;
  uri: string;
}

const RESOURCE = /(^|\s)@([A-Za-z0-9_.-]+):(\S+)/g;

/** `@server:uri` mentions of these servers, each once (trailing punctuation is not part of the URI). */
export function resourceMentionsIn(text: string, servers: Iterable<string>): ResourceMention[] {
  const known = new Set(servers);
  const out: ResourceMention[] = [];
  for (const m of text.matchAll(RESOURCE)) {
    const server = m[2]!;
    const uri = m[3]!.replace(/[.,;!?)]+$/, "");
    if (known.has(server) && uri && !out.some((o) => o.server === server && o.uri === uri)) out.push({ server, uri });
  }
  return out;
}

/** The mentions that name files: every `@token` but the resources of these servers. */
export function fileMentionsIn(text: string, servers: Iterable<string>): string[] {
  const resources = new Set(resourceMentionsIn(text, servers).map((r) => `${r.server}:${r.uri}`));
  return mentionsIn(text).filter((token) => !resources.has(token));
}
