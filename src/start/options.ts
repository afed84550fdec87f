// The command line, as data. main.ts builds commander from this table; bin/agent0.js reads the
// same table (without commander, which costs ~10 ms to load) to tell a TUI launch from the rest
// and to paint the first frame before the app's bundle loads. It is the first module a launch
// loads: it imports only constants.
import { PERMISSION_MODES, PROVIDERS, THINK_LEVELS } from "../protocol/run-config.js";

/** One option, in commander's syntax ("-m, --model <name>"). */
export interface OptionSpec {
  flags: string;
  description: string;
  choices?: readonly string[];
  default?: string;
  /** May be given several times: the values are kept in order, as a list. */
  repeatable?: boolean;
}

/** A command line's flags: a list for a repeatable option. */
export type Flags = Record<string, string | boolean | string[]>;

export const OPTIONS: readonly OptionSpec[] = [
  { flags: "-p, --print <prompt>", description: "run headless: print the final answer and exit" },
  {
    flags: "--output-format <format>",
    description: "headless output",
    choices: ["text", "json", "stream-json"],
    default: "text",
  },
  { flags: "-m, --model <name>", description: "model name, or provider/model (e.g. anthropic/claude-sonnet-4-5)" },
  { flags: "--host <url>", description: "Ollama host (default $OLLAMA_HOST or http://127.0.0.1:11434)" },
  { flags: "--provider <name>", description: "model provider", choices: PROVIDERS },
  { flags: "--base-url <url>", description: "base URL of an Anthropic or OpenAI-compatible server" },
  { flags: "--permission-mode <mode>", description: "when to ask before changes", choices: PERMISSION_MODES },
  {
    flags: "-y, --yes",
    description: "with -p: when no server answers, install the built-in engine and download a model without asking",
  },
  { flags: "--yolo", description: "never ask for permission (same as --permission-mode yolo)" },
  { flags: "--sandbox", description: "run shell commands under bubblewrap: only the project writable, no network" },
  { flags: "-r, --resume <id>", description: "resume a saved session by id or unique prefix" },
  { flags: "--session <id>", description: "same as --resume" },
  { flags: "-c, --continue", description: "continue the newest session of this folder" },
  { flags: "--num-ctx-cap <tokens>", description: "upper bound for num_ctx (default 32768)" },
  { flags: "--keep-alive <duration>", description: "how long Ollama keeps the model loaded (e.g. 10m, -1)" },
  {
    flags: "--think [level]",
    description: "ask the model to reason first; how much: off, low, medium, high or max (alone: on)",
    choices: THINK_LEVELS,
  },
  { flags: "--no-think", description: "ask a thinking model to answer without reasoning" },
  { flags: "--tick-ms <ms>", description: "how often agent output is painted (default 100)" },
  {
    flags: "--allowedTools <rules>",
    description: 'permission rules that allow without asking, e.g. "Bash(npm test:*),Edit(src/**)"',
  },
  { flags: "--disallowedTools <rules>", description: 'permission rules that refuse, e.g. "Bash(rm:*) WebFetch"' },
  {
    flags: "--add-dir <path>",
    description: "another folder the tools may use, by the project's rules (repeatable)",
    repeatable: true,
  },
  {
    flags: "--trust-project-mcp",
    description:
      "start this project's own MCP servers (.agent0/mcp.json, .mcp.json) and plugins (.agents/plugins) without asking",
  },
];

/** The subcommands main.ts defines: a first word that names one is not a prompt. */
export const SUBCOMMANDS = [
  "sessions",
  "mcp",
  "acp",
  "doctor",
  "review",
  "engine",
  "setup",
  "plugins",
  "models",
] as const;
export type Subcommand = (typeof SUBCOMMANDS)[number];

/** What a command line asks for, read without commander. */
export type Launch =
  | { kind: "tui"; flags: Flags; words: string[] }
  /** `flags` when the whole line could be read here (with defaults): the run needs no commander. */
  | { kind: "print"; flags?: Flags }
  /** --help, --version, a subcommand, or a line only commander can judge (it also reports the errors). */
  | { kind: "other" };

interface Parsed {
  key: string;
  short?: string;
  long: string;
  takesValue: boolean;
  /** `--name [value]`: the value may be left out (the flag alone is true). */
  optionalValue: boolean;
  negate: boolean;
  choices?: readonly string[];
  default?: string;
  repeatable: boolean;
}

const camel = (s: string) => s.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());

function parseSpec(spec: OptionSpec): Parsed {
  const m = /^(?:-(\w), )?--([\w-]+)(?: <\w+>| \[\w+\])?$/.exec(spec.flags);
  if (!m) throw new Error(`option syntax not understood: ${spec.flags}`);
  const long = m[2]!;
  const negate = long.startsWith("no-");
  return {
    key: camel(negate ? long.slice(3) : long),
    short: m[1],
    long,
    takesValue: spec.flags.includes("<") || spec.flags.includes("["),
    optionalValue: spec.flags.includes("["),
    negate,
    choices: spec.choices,
    default: spec.default,
    repeatable: spec.repeatable === true,
  };
}

// eslint-disable-next-line no-restricted-syntax -- a cache of a pure function: the option table, parsed once
let parsedOptions: Parsed[] | undefined;

/**
 * `--think fix it`: commander takes the word after an option whose value may be left out as that
 * value, and then refuses "fix" as a level. A word that is not one of the option's choices is the
 * prompt's, so the flag moves to the end of the options (before `--`), where it stands alone.
 * Both readings — readLaunch and commander in main.ts — read the line this gives.
 */
export function placeOptionalFlags(argv: readonly string[]): string[] {
  parsedOptions ??= OPTIONS.map(parseSpec);
  const end = argv.includes("--") ? argv.indexOf("--") : argv.length;
  const kept: string[] = [];
  const moved: string[] = [];
  for (let i = 0; i < end; i++) {
    const arg = argv[i]!;
    const opt = parsedOptions.find((o) => arg === `--${o.long}` || arg === `-${o.short}`);
    const next = i + 1 < end ? argv[i + 1] : undefined;
    if (opt?.takesValue && !opt.optionalValue && next !== undefined) {
      kept.push(arg, next); // its value, whatever it looks like
      i++;
    } else if (opt?.optionalValue && opt.choices && next && !next.startsWith("-") && !opt.choices.includes(next))
      moved.push(arg);
    else kept.push(arg);
  }
  return [...kept, ...moved, ...argv.slice(end)];
}

/**
 * Reads argv (without node and the script) the way commander reads it for the forms people type:
 * `--name value`, `--name=value`, `-n value`, `-nvalue`, boolean flags, `--no-x`, words anywhere
 * and everything after `--` as words. Anything else is "other", and commander decides.
 */
export function readLaunch(line: readonly string[]): Launch {
  const argv = placeOptionalFlags(line);
  parsedOptions ??= OPTIONS.map(parseSpec);
  const flags: Flags = {};
  const words: string[] = [];
  // A line with -p that cannot be read whole is still a headless run: commander reads it (or says what is wrong).
  const other = (): Launch => (flags.print !== undefined ? { kind: "print" } : { kind: "other" });
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--") {
      words.push(...argv.slice(i + 1));
      break;
    }
    if (!arg.startsWith("-") || arg === "-") {
      words.push(arg);
      continue;
    }
    const long = arg.startsWith("--");
    const eq = long ? arg.indexOf("=") : -1;
    const name = long ? arg.slice(2, eq < 0 ? undefined : eq) : arg.slice(1, 2);
    const opt = parsedOptions.find((o) => (long ? o.long === name : o.short === name));
    if (!opt) return other();
    let value: string | boolean;
    if (!opt.takesValue) {
      if (eq >= 0 || (!long && arg.length > 2)) return other();
      value = !opt.negate;
    } else if (eq >= 0) value = arg.slice(eq + 1);
    else if (opt.optionalValue && (i + 1 >= argv.length || argv[i + 1]!.startsWith("-"))) value = true;
    // commander takes the next word as the value (and judges it against the choices).
    else if (!long && arg.length > 2) value = arg.slice(2);
    else if (i + 1 < argv.length) value = argv[++i]!;
    else return other();
    if (typeof value === "string" && opt.choices && !opt.choices.includes(value)) return other();
    const earlier = flags[opt.key];
    flags[opt.key] = opt.repeatable ? [...(Array.isArray(earlier) ? earlier : []), String(value)] : value;
  }
  // commander takes a first word that names a subcommand as that subcommand, even after `--`.
  if ((SUBCOMMANDS as readonly string[]).includes(words[0] ?? "")) return other();
  if (flags.print !== undefined) {
    for (const opt of parsedOptions) if (opt.default !== undefined) flags[opt.key] ??= opt.default;
    return { kind: "print", flags };
  }
  return { kind: "tui", flags, words };
}
