// Options that make a reading command write a file or run another program: `git diff --output=…`,
// `sort -o …`, `find -exec …`, `rg --pre …`. The read-only allowlist (tools/shell/safety.ts) never
// runs such a command unasked, and a permission rule's prefix does not carry one the user did not
// write into the rule (context/permission-rules.ts). Sources: gemini-cli#29189, mistral-vibe#1082,
// cindy#964, hive#450, trusty-tools#7405, GTFOBins (tests/context/shell-rule-redirects.test.ts).

interface WriteRunOptions {
  /**
   * Long options, written `abbrev|rest`: GNU getopt and git take any unambiguous abbreviation, so
   * every prefix of the name at least as long as `abbrev` counts (`sort --out=x`).
   */
  long?: readonly string[];
  /** Short options that write or run, alone, in a cluster (`-ro`) or with their value glued on. */
  short?: string;
  /** Short options that take a value: a cluster ends at them (`sort -t:` is a separator, not -o). */
  valued?: string;
  /** Whole words (find's single-dash names). */
  words?: readonly string[];
}

const FIND: WriteRunOptions = {
  words: ["-exec", "-execdir", "-ok", "-okdir", "-delete", "-fprint", "-fprint0", "-fprintf", "-fls"],
};
const FD: WriteRunOptions = { long: ["exec|", "exec-batch|"], short: "xX" };

/** Per command; git's subcommands below. */
const COMMANDS: ReadonlyMap<string, WriteRunOptions> = new Map([
  ["sort", { long: ["o|utput", "co|mpress-program"], short: "o", valued: "kStT" }],
  ["shuf", { long: ["o|utput"], short: "o", valued: "in" }],
  ["find", FIND],
  ["fd", FD],
  ["fdfind", FD],
  ["rg", { long: ["pre|", "hostname-bin|"] }],
  [
    "tar",
    {
      long: [
        "to-c|ommand",
        "use-c|ompress-program",
        "checkpoint-a|ction",
        "info-s|cript",
        "new-v|olume-script",
        "rsh-c|ommand",
      ],
      short: "IF",
      valued: "fCbHKLNTVXg",
    },
  ],
  ["rsync", { long: ["rsh|", "rsync-path|"], short: "e" }],
  [
    "curl",
    {
      long: ["output|", "dump-header|", "cookie-jar|", "trace|", "trace-ascii|"],
      short: "oDc",
      valued: "HdXuAebEKmrwxyzYTF",
    },
  ],
  ["wget", { long: ["output-d|ocument", "output-f|ile", "ap|pend-output"], short: "Ooa" }],
  ["sed", { long: ["i|n-place"], short: "i", valued: "efl" }],
]);

/** git's global options that set config (which names programs) or where git finds its programs. */
const GIT_GLOBAL = ["-c", "--config-env", "--exec-path"];
/** Every git subcommand: options that write a file or run a program (diff, log, fetch, rebase …). */
const GIT_ANY: WriteRunOptions = {
  long: ["out|put", "ext|-diff", "textc|onv", "upl|oad-pack", "rece|ive-pack", "exec|"],
};
const GIT_SUB: ReadonlyMap<string, WriteRunOptions> = new Map([
  ["grep", { long: ["op|en-files-in-pager"], short: "O", valued: "efABCm" }],
  ["cat-file", { long: ["filters|"] }],
  ["format-patch", { long: ["output-d|irectory"], short: "o", valued: "v" }],
  ["archive", { short: "o" }],
  ["rebase", { short: "x", valued: "sX" }],
]);

function longHit(arg: string, names: readonly string[]): boolean {
  if (!arg.startsWith("--") || arg.length < 3) return false;
  const given = arg.slice(2).split("=")[0]!;
  return names.some((spec) => {
    const [abbrev, rest] = spec.split("|") as [string, string];
    const full = abbrev + rest;
    return given.length >= abbrev.length && full.startsWith(given);
  });
}

function shortHit(arg: string, letters: string, valued: string): boolean {
  const cluster = /^-([A-Za-z]+)/.exec(arg)?.[1];
  if (!cluster || arg.startsWith("--")) return false;
  for (const c of cluster) {
    if (letters.includes(c)) return true;
    if (valued.includes(c)) return false;
  }
  return false;
}

/** Where in `args` (offset by `from`) the options of `opts` stand, up to a `--`. */
function hitsIn(args: readonly string[], from: number, opts: readonly WriteRunOptions[]): number[] {
  const out: number[] = [];
  for (let i = from; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === "--") break;
    const hit = opts.some(
      (o) =>
        o.words?.includes(arg) ||
        (o.long !== undefined && longHit(arg, o.long)) ||
        (o.short !== undefined && shortHit(arg, o.short, o.valued ?? "")),
    );
    if (hit) out.push(i);
  }
  return out;
}

/** git's global options that take the next word as their value. */
const GIT_GLOBAL_VALUED: ReadonlySet<string> = new Set(["-c", "-C", "--git-dir", "--work-tree", "--namespace"]);

function gitHits(words: readonly string[]): number[] {
  const out: number[] = [];
  let at = 1;
  for (; at < words.length && words[at]!.startsWith("-"); at++) {
    const arg = words[at]!;
    if (GIT_GLOBAL.some((g) => arg === g || arg.startsWith(`${g}=`))) out.push(at);
    if (GIT_GLOBAL_VALUED.has(arg)) at++;
  }
  if (at >= words.length) return out;
  const sub = GIT_SUB.get(words[at]!);
  return [...out, ...hitsIn(words, at + 1, sub ? [GIT_ANY, sub] : [GIT_ANY])];
}

/**
 * Where a command (as words, its name first) has an option that writes a file or runs a program:
 * the indices of those words, empty when it has none.
 */
export function writeOrRunOptions(words: readonly string[]): number[] {
  const name = words[0];
  if (name === undefined) return [];
  if (name === "git") return gitHits(words);
  const opts = COMMANDS.get(name);
  return opts ? hitsIn(words, 1, [opts]) : [];
}
