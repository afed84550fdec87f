// Checkpoints for /undo: before a tool first changes a file in a user turn, its previous bytes
// (or its absence) are saved beside the session, never in the project. Each turn is a folder
// `turn-<n>/` holding `manifest.json` and one blob per saved file, so undo survives a restart.
import { createHash } from "node:crypto";
import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";

export interface CheckpointFile {
  /** Absolute path of the file a tool changed. */
  path: string;
  existed: boolean;
  /** Blob name in the turn folder holding the previous bytes (when it existed). */
  blob?: string;
  mode?: number;
  beforeHash?: string;
  /** sha256 of what agent0 left there; null: agent0 left no file; absent: not recorded yet. */
  afterHash?: string | null;
  /** Folders above a new file that did not exist yet, deepest first: undo removes them when empty. */
  newDirs?: string[];
}

export interface TurnCheckpoint {
  /** Index of the turn's user message in the conversation. */
  turn: number;
  ranShell: boolean;
  files: CheckpointFile[];
}

export interface UndoResult {
  turn: number;
  /** False when conflicts stopped it: nothing was touched and the checkpoint is kept. */
  applied: boolean;
  restored: string[];
  removedCreated: string[];
  /** Files changed outside agent0 since the turn; only overwritten with `force`. */
  conflicts: string[];
  /** Shell commands cannot be undone; the UI says so. */
  ranShell: boolean;
}

export { checkpointDirFor } from "./checkpoint-dir.js";

const TURN_DIR = /^turn-(\d+)$/;
const MANIFEST = "manifest.json";

export class Checkpoints {
  private current: TurnCheckpoint | undefined;
  /** File work runs one at a time so manifest writes never interleave. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(readonly dir: string) {}

  /**
   * Starts recording turn `turn`. Checkpoints at `turn` or later belong to a conversation that
   * no longer exists (it was undone or cut), so they are dropped. The previous turn is sealed:
   * what its files hold now is what agent0 left, if endTurn() was not called.
   */
  beginTurn(turn: number): void {
    const previous = this.lastTurn();
    for (const n of this.turnNumbers()) if (n >= turn) fs.rmSync(this.turnDir(n), { recursive: true, force: true });
    if (previous && previous.turn < turn && previous.files.some((f) => f.afterHash === undefined)) {
      for (const f of previous.files) f.afterHash ??= hashSync(f.path);
      this.save(previous);
    }
    this.current = { turn, ranShell: false, files: [] };
    fs.mkdirSync(this.turnDir(turn), { recursive: true, mode: 0o700 });
    this.save(this.current);
  }

  /** Saves the file's bytes (or its absence) the first time the current turn is about to change it. */
  recordBefore(absPath: string): Promise<void> {
    const cp = this.current;
    return this.serial(async () => {
      if (!cp || cp.files.some((f) => f.path === absPath)) return;
      const entry: CheckpointFile = { path: absPath, existed: false };
      const bytes = await readIfExists(absPath);
      if (!bytes) {
        const newDirs = missingFolders(absPath);
        if (newDirs.length > 0) entry.newDirs = newDirs;
      }
      if (bytes) {
        entry.existed = true;
        entry.blob = `${cp.files.length}.bin`;
        entry.mode = (await fsp.stat(absPath)).mode & 0o7777;
        entry.beforeHash = hash(bytes);
        await fsp.writeFile(path.join(this.turnDir(cp.turn), entry.blob), bytes, { mode: 0o600 });
      }
      cp.files.push(entry);
      this.save(cp);
    });
  }

  /** Notes what a tool left in the file, so a later change by someone else can be told apart. */
  recordAfter(absPath: string): Promise<void> {
    const cp = this.current;
    return this.serial(async () => {
      const entry = cp?.files.find((f) => f.path === absPath);
      if (!cp || !entry) return;
      entry.afterHash = await hashOf(absPath);
      this.save(cp);
    });
  }

  /** Records what every file of the current turn holds as the turn ends. */
  endTurn(): Promise<void> {
    const cp = this.current;
    return this.serial(async () => {
      if (!cp) return;
      for (const f of cp.files) f.afterHash = await hashOf(f.path);
      this.save(cp);
    });
  }

  /** The turn ran a shell command, whose effects no checkpoint holds. */
  markShell(turn?: number): void {
    const cp = turn === undefined || turn === this.current?.turn ? this.current : this.read(turn);
    if (!cp || cp.ranShell) return;
    cp.ranShell = true;
    this.save(cp);
  }

  lastTurn(): TurnCheckpoint | undefined {
    const numbers = this.turnNumbers().sort((a, b) => b - a);
    for (const n of numbers) {
      const cp = this.read(n);
      if (cp) return cp;
    }
    return undefined;
  }

  /**
   * Puts every file of the last recorded turn back as it was before the turn and drops that
   * checkpoint, so the next undo walks further back. Undefined when no turn is recorded.
   */
  undo(opts: { force?: boolean } = {}): Promise<UndoResult | undefined> {
    const last = this.lastTurn();
    return last ? this.rewindTo(last.turn, opts) : Promise.resolve(undefined);
  }

  /**
   * Puts every file the turns from `turn` on changed back as it was before the earliest of them
   * (/rewind; /undo is the last turn alone) and drops their checkpoints. A file changed outside
   * agent0 since the last turn that touched it stops everything unless `force`.
   */
  rewindTo(turn: number, opts: { force?: boolean } = {}): Promise<UndoResult | undefined> {
    return this.serial(async () => {
      const turns = this.turnNumbers()
        .filter((n) => n >= turn)
        .sort((a, b) => b - a)
        .map((n) => (this.current?.turn === n ? this.current : this.read(n)))
        .filter((cp): cp is TurnCheckpoint => cp !== undefined);
      if (turns.length === 0) return undefined;
      const result: UndoResult = {
        turn: turns[turns.length - 1]!.turn,
        applied: false,
        restored: [],
        removedCreated: [],
        conflicts: [],
        ranShell: turns.some((cp) => cp.ranShell),
      };
      // Per file: the newest turn that touched it says what agent0 left; the oldest what was there before.
      const newest = new Map<string, CheckpointFile>();
      const oldest = new Map<string, { cp: TurnCheckpoint; file: CheckpointFile }>();
      for (const cp of turns) {
        for (const f of cp.files) {
          if (!newest.has(f.path)) newest.set(f.path, f);
          oldest.set(f.path, { cp, file: f });
        }
      }
      const changed: { cp: TurnCheckpoint; file: CheckpointFile }[] = [];
      for (const [p, first] of oldest) {
        // A folder on the way that became a link since (src -> a folder of the user's): restoring
        // would delete and write the file it leads to. Never restored, even with force.
        if (!parentIsWhereItWas(p)) {
          result.conflicts.push(p);
          continue;
        }
        const now = await hashOf(p);
        if (now === (first.file.existed ? first.file.beforeHash : null)) continue; // already as before
        const last = newest.get(p)!;
        // Unsealed (agent0 stopped mid-turn): what is there now is taken as agent0's.
        if (last.afterHash !== undefined && now !== last.afterHash) result.conflicts.push(p);
        changed.push(first);
      }
      if (result.conflicts.length > 0 && !opts.force) return result;
      for (const { cp, file: f } of changed) {
        if (f.existed && f.blob) {
          await fsp.mkdir(path.dirname(f.path), { recursive: true });
          await fsp.rm(f.path, { recursive: true, force: true }); // it may have become a folder
          // "wx": a link put in its place meanwhile is not written through.
          await fsp.writeFile(f.path, await fsp.readFile(path.join(this.turnDir(cp.turn), f.blob)), { flag: "wx" });
          if (f.mode !== undefined) await fsp.chmod(f.path, f.mode);
          result.restored.push(f.path);
        } else {
          await fsp.rm(f.path, { recursive: true, force: true });
          result.removedCreated.push(f.path);
        }
      }
      // Folders the turns created for new files go too, once nothing else is left in them.
      for (const dir of turns.flatMap((cp) => cp.files.flatMap((f) => f.newDirs ?? []))) {
        if (
          await fsp.rmdir(dir).then(
            () => true,
            () => false,
          )
        )
          result.removedCreated.push(dir + path.sep);
      }
      for (const cp of turns) fs.rmSync(this.turnDir(cp.turn), { recursive: true, force: true });
      if (this.current && this.current.turn >= turn) this.current = undefined;
      result.applied = true;
      return result;
    });
  }

  /**
   * Every file the recorded turns changed, with what it held before the earliest of them (null: it
   * did not exist): /diff compares this with what is there now.
   */
  async sessionChanges(): Promise<{ path: string; before: Buffer | null }[]> {
    const out = new Map<string, Buffer | null>();
    for (const n of this.turnNumbers().sort((a, b) => a - b)) {
      const cp = this.current?.turn === n ? this.current : this.read(n);
      for (const f of cp?.files ?? []) {
        if (out.has(f.path)) continue;
        out.set(f.path, f.existed && f.blob ? await fsp.readFile(path.join(this.turnDir(n), f.blob)) : null);
      }
    }
    return [...out].map(([p, before]) => ({ path: p, before }));
  }

  /**
   * Compaction renumbered the conversation: the checkpoint of turn `from` moves to `to`, the new
   * index of its user message, or is dropped when that message went into the summary (undefined).
   * Every other turn now lives only inside the summary, so it can no longer be undone.
   */
  rebase(from: number, to: number | undefined): Promise<void> {
    return this.serial(() => {
      const cp = this.current?.turn === from ? this.current : this.read(from);
      for (const n of this.turnNumbers()) if (n !== from) fs.rmSync(this.turnDir(n), { recursive: true, force: true });
      if (!cp || to === undefined) {
        fs.rmSync(this.turnDir(from), { recursive: true, force: true });
        if (this.current?.turn === from) this.current = undefined;
        return;
      }
      if (to === from) return;
      fs.renameSync(this.turnDir(from), this.turnDir(to));
      cp.turn = to;
      this.save(cp);
    });
  }

  /** Forgets every checkpoint (after /clear, when turn numbers no longer match). */
  clear(): void {
    fs.rmSync(this.dir, { recursive: true, force: true });
    this.current = undefined;
  }

  private serial<T>(work: () => T | Promise<T>): Promise<T> {
    const next = this.queue.then(work);
    this.queue = next.catch(() => undefined);
    return next;
  }

  private turnDir(turn: number): string {
    return path.join(this.dir, `turn-${turn}`);
  }

  private turnNumbers(): number[] {
    try {
      return fs
        .readdirSync(this.dir)
        .map((name) => TURN_DIR.exec(name))
        .filter((m): m is RegExpExecArray => m !== null)
        .map((m) => Number(m[1]));
    } catch {
      return [];
    }
  }

  private read(turn: number): TurnCheckpoint | undefined {
    try {
      const cp = JSON.parse(fs.readFileSync(path.join(this.turnDir(turn), MANIFEST), "utf8")) as TurnCheckpoint;
      return cp.turn === turn && Array.isArray(cp.files) ? cp : undefined;
    } catch {
      return undefined;
    }
  }

  /** Write-then-rename, so a crash never leaves half a manifest. */
  private save(cp: TurnCheckpoint): void {
    const file = path.join(this.turnDir(cp.turn), MANIFEST);
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    fs.writeFileSync(file + ".tmp", JSON.stringify(cp), { mode: 0o600 });
    fs.renameSync(file + ".tmp", file);
  }
}

function hash(bytes: Buffer): string {
  return createHash("sha256").update(bytes).digest("hex");
}

async function readIfExists(file: string): Promise<Buffer | undefined> {
  try {
    return await fsp.readFile(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw err;
  }
}

/** sha256 of the file's bytes; null when there is no file (or no readable file) there. */
async function hashOf(file: string): Promise<string | null> {
  try {
    return hash(await fsp.readFile(file));
  } catch {
    return null;
  }
}

function hashSync(file: string): string | null {
  try {
    return hash(fs.readFileSync(file));
  } catch {
    return null;
  }
}

/**
 * The index of a turn's user message in a compacted conversation: the last user message with the
 * same text (the kept tail is a suffix, so a later copy is the one that survived); undefined when
 * the message went into the summary.
 */
export function turnAfterCompaction(
  message: { role: string; content: string } | undefined,
  after: readonly { role: string; content: string }[],
): number | undefined {
  if (message?.role !== "user") return undefined;
  for (let i = after.length - 1; i >= 0; i--) {
    if (after[i]!.role === "user" && after[i]!.content === message.content) return i;
  }
  return undefined;
}

/** The folders above `file` that do not exist, deepest first (what `mkdir -p` would create). */
function missingFolders(file: string): string[] {
  const out: string[] = [];
  let dir = path.dirname(file);
  while (dir !== path.dirname(dir) && !fs.existsSync(dir)) {
    out.push(dir);
    dir = path.dirname(dir);
  }
  return out;
}

/**
 * Whether the folders above `file` are still real folders where they were: the tools record
 * resolved paths, so a parent whose real path now differs has become (or passes through) a link.
 * A parent that no longer exists is fine: undo makes it again.
 */
function parentIsWhereItWas(file: string): boolean {
  let dir = path.dirname(file);
  for (;;) {
    try {
      return fs.realpathSync(dir) === dir;
    } catch {
      const up = path.dirname(dir);
      if (up === dir) return true;
      dir = up;
    }
  }
}
