// `agent0 sessions delete <id>`: one saved session removed (session/delete.ts), said in one line;
// an unknown or ambiguous id, or a session open elsewhere, is an error that names why.
import { sanitize } from "../render/sanitize.js";
import { deleteSession } from "../session/delete.js";

/** Runs `agent0 sessions <action> [id]`; returns the exit code. */
export function deleteCommand(action: string, id: string | undefined, dir: string): number {
  if (action !== "delete" || !id) {
    process.stderr.write(
      action === "delete"
        ? "agent0: sessions delete needs a session id (see `agent0 sessions`).\n"
        : `agent0: unknown sessions action '${sanitize(action)}' (only: delete <id>).\n`,
    );
    return 2;
  }
  const deleted = deleteSession(dir, id);
  if (!deleted.ok) {
    process.stderr.write(sanitize(`agent0: ${deleted.error}`) + "\n");
    return 1;
  }
  process.stdout.write(sanitize(`Deleted session ${deleted.id}${deleted.title ? ` (${deleted.title})` : ""}.`) + "\n");
  return 0;
}
