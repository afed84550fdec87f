// The patch format gpt-oss and Codex-trained models write:
//
//   *** Begin Patch
//   *** Update File: src/a.ts
//   @@ optional context line
//    context
//   -old line
//   +new line
//   *** Add File: src/b.ts
//   +whole new content
//   *** Delete File: src/c.ts
//   *** End Patch
//
// Each hunk becomes an old/new text pair that edit_file's matching cascade places, so the fuzz
// (whitespace, indentation, a misremembered line) is the same one edits get.

export type PatchOp =
  | { kind: "update"; path: string; hunks: { old_string: string; new_string: string }[] }
  | { kind: "add"; path: string; content: string }
  | { kind: "delete"; path: string };

export type ParsedPatch = { ok: true; ops: PatchOp[] } | { ok: false; error: string };

const HEADER = /^\*\*\* (Update|Add|Delete) File: (.+)$/;

export function parsePatch(text: string): ParsedPatch {
  const lines = text.replace(/\r\n/g, "\n").split("\n");
  const begin = lines.findIndex((l) => l.trim() === "*** Begin Patch");
  if (begin < 0) return { ok: false, error: 'the patch must start with "*** Begin Patch"' };
  const ops: PatchOp[] = [];
  let i = begin + 1;
  for (; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.trim() === "*** End Patch") break;
    if (line.trim() === "") continue;
    const head = HEADER.exec(line.trimEnd());
    if (!head)
      return { ok: false, error: `line ${i + 1}: expected "*** Update/Add/Delete File: <path>", got "${line}"` };
    const path = head[2]!.trim();
    const body: string[] = [];
    while (i + 1 < lines.length && !lines[i + 1]!.startsWith("*** ")) body.push(lines[++i]!);
    if (head[1] === "Delete") ops.push({ kind: "delete", path });
    else if (head[1] === "Add") {
      const bad = body.findIndex((l) => l !== "" && !l.startsWith("+"));
      if (bad >= 0) return { ok: false, error: `${path}: every line of an added file starts with "+"` };
      const content = body.map((l) => l.slice(1)).join("\n");
      ops.push({ kind: "add", path, content: body.length > 0 ? `${content}\n` : "" });
    } else {
      const hunks = hunksOf(body);
      if (typeof hunks === "string") return { ok: false, error: `${path}: ${hunks}` };
      ops.push({ kind: "update", path, hunks });
    }
  }
  if (ops.length === 0) return { ok: false, error: "the patch changes no file" };
  return { ok: true, ops };
}

/** `@@`-separated hunks: " " context, "-" old, "+" new; "*** End of File" is ignored. */
function hunksOf(body: string[]): { old_string: string; new_string: string }[] | string {
  const hunks: { old: string[]; neu: string[]; anchor?: string }[] = [];
  let cur: { old: string[]; neu: string[]; anchor?: string } | undefined;
  for (const line of body) {
    if (line.startsWith("@@")) {
      // "@@ def f():" names a line above the hunk (not always next to it).
      const anchor = line.slice(2).trim();
      cur = anchor === "" ? { old: [], neu: [] } : { old: [], neu: [], anchor };
      hunks.push(cur);
      continue;
    }
    if (line === "*** End of File") continue;
    if (!cur) hunks.push((cur = { old: [], neu: [] }));
    const tag = line[0];
    const rest = line.slice(1);
    if (tag === "-") cur.old.push(rest);
    else if (tag === "+") cur.neu.push(rest);
    else if (tag === " " || line === "") {
      cur.old.push(rest);
      cur.neu.push(rest);
    } else return `a hunk line must start with " ", "-" or "+": "${line}"`;
  }
  // A hunk that only adds lines is placed right after its anchor line.
  for (const h of hunks) {
    if (h.anchor && h.old.every((l) => l.trim() === "")) {
      h.old.unshift(h.anchor);
      h.neu.unshift(h.anchor);
    }
  }
  const out = hunks
    .filter((h) => h.old.length > 0 || h.neu.length > 0)
    .map((h) => ({ old_string: h.old.join("\n"), new_string: h.neu.join("\n") }));
  if (out.length === 0) return "no hunks";
  if (out.some((h) => h.old_string === h.new_string)) return "a hunk changes nothing";
  if (out.some((h) => h.old_string.trim() === "")) return "a hunk has no context or removed lines to place it by";
  return out;
}
