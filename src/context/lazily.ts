/**
 * A value made on first use, then kept. For zod schemas above all: building one costs from a tenth
 * of a millisecond to a few, a module's worth adds up at every start, and most runs never parse
 * what they check (a config file, frontmatter, a session file to resume).
 */
export function lazily<T>(make: () => T): () => T {
  let made: { value: T } | undefined;
  return () => (made ??= { value: make() }).value;
}
