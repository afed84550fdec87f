// Drives the built app in a real terminal (tmux on a private socket) against the fake Ollama.
import { execFileSync, spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach } from "vitest";
import { removeSandbox } from "../fakes/home-processes.js";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
export const BIN = path.join(ROOT, "bin", "agent0.js");
/** The app behind term-proxy.py: a terminal in between that answers queries and logs what the app wrote. */
export const TERM_PROXY_BIN = path.join(ROOT, "tests", "e2e", "fixtures", "term-proxy-bin.mjs");

/**
 * End-to-end tests run the built app: a source file newer than the build would test yesterday's
 * code and pass or fail for the wrong reason. Checked once per test file, before any test runs.
 */
function assertFreshBuild(): void {
  const built = path.join(ROOT, "dist", "bundle", "main.js");
  const builtAt = fs.existsSync(built) ? fs.statSync(built).mtimeMs : 0;
  const newer = fs
    .readdirSync(path.join(ROOT, "src"), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && fs.statSync(path.join(e.parentPath, e.name)).mtimeMs > builtAt)
    .map((e) => path.relative(ROOT, path.join(e.parentPath, e.name)));
  if (builtAt === 0 || newer.length > 0)
    throw new Error(
      `dist/ is older than src/ (${builtAt === 0 ? "no build" : newer.slice(0, 3).join(", ")}): run \`npm run build\` first (npm test does).`,
    );
}
assertFreshBuild();

/**
 * Sandboxes not removed yet: a test that failed before its clean-up, or a worker stopped
 * mid-test, still leaves no /tmp/agent0-e2e-* behind when this process exits.
 */
const unremoved = new Map<string, string>();
process.on("exit", () => {
  for (const [base, home] of unremoved) removeSandbox(base, home);
});

export interface Sandbox {
  home: string;
  project: string;
  env: Record<string, string>;
  cleanup(): void;
}

/** A temp HOME and XDG folders and an empty project folder; nothing of the real user is touched. */
export function sandbox(): Sandbox {
  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "agent0-e2e-")));
  const home = path.join(base, "home");
  unremoved.set(base, home);
  const project = path.join(base, "project");
  for (const d of [home, project, path.join(home, ".config", "agent0"), path.join(home, ".local", "share")])
    fs.mkdirSync(d, { recursive: true });
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: home,
    XDG_CONFIG_HOME: path.join(home, ".config"),
    XDG_DATA_HOME: path.join(home, ".local", "share"),
    TERM: "xterm-256color",
    LANG: "C.UTF-8",
    NCURSES_NO_UTF8_ACS: "1",
    // The start-up git facts' 300 ms budget is for users; a loaded test machine must not cut them.
    AGENT0_GIT_BUDGET_MS: "30000",
  };
  return {
    home,
    project,
    env,
    // Whatever the test started that still runs (an app that outlived its terminal, a child it
    // left) would go on writing into the folder being removed: it is stopped first. A write racing
    // the removal is retried for a few seconds.
    cleanup: () => {
      removeSandbox(base, home);
      unremoved.delete(base);
    },
  };
}

/**
 * The sandbox's PATH without `hidden` (e.g. bwrap): a folder of links to every other program on the
 * PATH, so the app runs as on a machine where those are not installed.
 */
export function hideFromPath(sb: Sandbox, hidden: readonly string[]): void {
  const bin = path.join(sb.home, "path-without-" + hidden.join("-"));
  fs.mkdirSync(bin, { recursive: true });
  for (const dir of (sb.env.PATH ?? "").split(path.delimiter)) {
    let names: string[];
    try {
      names = fs.readdirSync(dir);
    } catch {
      continue;
    }
    for (const name of names) {
      if (hidden.includes(name) || fs.existsSync(path.join(bin, name))) continue;
      fs.symlinkSync(path.join(dir, name), path.join(bin, name));
    }
  }
  sb.env.PATH = bin;
}

/** Writes `value` as JSON, its folders made first (a config or settings file of a test). */
export function writeJson(file: string, value: unknown): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, JSON.stringify(value, null, 2));
}

/** The user's agent0 config file in the sandbox. */
export function userConfigFile(sb: Sandbox): string {
  return path.join(sb.env.XDG_CONFIG_HOME!, "agent0", "config.json");
}

/** Every file under dir, recursively. */
export function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile())
    .map((e) => path.join(e.parentPath, e.name));
}

export function sessionFiles(sb: Sandbox): string[] {
  const dir = path.join(sb.env.XDG_DATA_HOME!, "agent0", "sessions");
  return fs.existsSync(dir)
    ? fs
        .readdirSync(dir)
        .filter((f) => f.endsWith(".jsonl"))
        .map((f) => path.join(dir, f))
    : [];
}

const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

let seq = 0;

/** The app running in a tmux pane. */
/** Time for a frame the app is writing to reach the screen whole (see Tui.waitFor). */
const PAINT_SETTLE_MS = 30;

export class Tui {
  readonly socket = `agent0-test-${process.pid}-${++seq}`;
  constructor(
    readonly sb: Sandbox,
    args: string[],
    /**
     * `bin`: another copy of the app's bin/agent0.js (default: this checkout's). `serverOptions`:
     * tmux server options set before the pane starts, e.g. ["extended-keys", "on"].
     */
    opts: { width?: number; height?: number; bin?: string; serverOptions?: [string, string][] } = {},
  ) {
    const envs = Object.entries(sb.env)
      .map(([k, v]) => `${k}=${shellQuote(v)}`)
      .join(" ");
    // After the app exits, the pane shows what it printed, and stays for us to read.
    const cmd = `cd ${shellQuote(sb.project)} && env -i ${envs} node ${shellQuote(opts.bin ?? BIN)} ${args.map(shellQuote).join(" ")}; echo "[exit $?]"; sleep 600`;
    // Set in the same tmux call that starts the server: the pane's program sees them from its first byte.
    const options = (opts.serverOptions ?? []).flatMap(([name, value]) => ["set", "-s", name, value, ";"]);
    this.tmux(
      ...options,
      "new-session",
      "-d",
      "-s",
      "main",
      "-x",
      String(opts.width ?? 100),
      "-y",
      String(opts.height ?? 30),
      cmd,
    );
  }

  tmux(...args: string[]): string {
    return execFileSync("tmux", ["-L", this.socket, "-f", "/dev/null", ...args], { encoding: "utf8" });
  }

  screen(): string {
    return this.tmux("capture-pane", "-p", "-t", "main");
  }

  /** With SGR colour codes, to check colours. */
  screenAnsi(): string {
    return this.tmux("capture-pane", "-p", "-e", "-t", "main");
  }

  type(text: string): void {
    this.tmux("send-keys", "-t", "main", "-l", text);
  }

  /** tmux key names: Enter, Escape, C-d, PageUp, ... */
  press(...keys: string[]): void {
    this.tmux("send-keys", "-t", "main", ...keys);
  }

  /**
   * The screen once it holds `what` (text, a pattern, or a test of the whole screen), in two captures
   * a moment apart; the second is returned. tmux 3.3 paints as the bytes come, so a capture taken while
   * the app writes a frame can hold what was waited for (a dialog's title) without the rest (its rows)
   * — under load for tens of milliseconds.
   */
  async waitFor(what: string | RegExp | ((screen: string) => boolean), timeoutMs = 10_000): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    let last = "";
    const holds = (s: string) =>
      typeof what === "string" ? s.includes(what) : typeof what === "function" ? what(s) : what.test(s);
    while (Date.now() < deadline) {
      last = this.screen();
      if (holds(last)) {
        await sleep(PAINT_SETTLE_MS);
        last = this.screen();
        if (holds(last)) return last;
      }
      await sleep(50);
    }
    throw new Error(`timed out waiting for ${String(what)}; screen was:\n${last}`);
  }

  /** A terminal running the app with `args`, once its input is ready ("Ask anything"); closed if it never is. */
  static async open(sb: Sandbox, args: string[], opts: ConstructorParameters<typeof Tui>[2] = {}): Promise<Tui> {
    const tui = new Tui(sb, args, opts);
    try {
      await tui.waitFor("Ask anything");
    } catch (err) {
      tui.kill();
      throw err;
    }
    return tui;
  }

  /** Types `text` and presses Enter. */
  send(text: string): void {
    this.type(text);
    this.press("Enter");
  }

  /** Types a prompt, sends it, and waits until `answer` shows and the app is idle again. */
  async ask(prompt: string, answer: string | RegExp): Promise<string> {
    this.type(prompt);
    this.press("Enter");
    await this.waitFor(answer);
    return this.waitFor(/^idle · /m);
  }

  /** The pid of the app (the node process inside the pane's shell). */
  appPid(): number | undefined {
    const shell = Number(this.tmux("list-panes", "-t", "main", "-F", "#{pane_pid}").trim());
    const out = spawnSync("pgrep", ["-P", String(shell), "node"], { encoding: "utf8" }).stdout.trim();
    return out ? Number(out.split("\n")[0]) : undefined;
  }

  kill(): void {
    try {
      this.tmux("kill-server");
    } catch {
      // already gone
    }
  }
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/**
 * The agent events the app wrote to its run logs (`$XDG_DATA_HOME/agent0/logs`, one JSON line per
 * event; `pid`: one launch's log only): what a test waits for before it asserts that something did
 * not happen, instead of sleeping.
 */
export function loggedEvents(sb: Sandbox, pid?: number): ({ type: string } & Record<string, unknown>)[] {
  const dir = path.join(sb.env.XDG_DATA_HOME!, "agent0", "logs");
  const lines = filesUnder(dir)
    .filter((f) => pid === undefined || f.endsWith(`-${pid}.log`))
    .flatMap((f) => fs.readFileSync(f, "utf8").split("\n"));
  const events: ({ type: string } & Record<string, unknown>)[] = [];
  for (const line of lines) {
    try {
      const entry = JSON.parse(line) as { kind: string; type: string } & Record<string, unknown>;
      if (entry.kind === "event") events.push(entry);
    } catch {
      // an empty line, or the last one while it is being written
    }
  }
  return events;
}

/** Each report of the MCP servers' states the agent made (`mcp-state` events in the run logs). */
export function mcpReports(sb: Sandbox, pid?: number): { name: string; state: string }[][] {
  return loggedEvents(sb, pid)
    .filter((e) => e.type === "mcp-state")
    .map((e) => e.servers as { name: string; state: string }[]);
}

/**
 * Waits for this launch's agent to report the MCP server `name`; returns every server name it has
 * reported. The agent reports all the servers of a sync at once, so a server it was told to run in
 * the same sync is named by then.
 */
export async function mcpReportedWith(sb: Sandbox, tui: Tui, name: string): Promise<string[]> {
  const pid = tui.appPid();
  const names = () => mcpReports(sb, pid).flatMap((r) => r.map((s) => s.name));
  await waitUntil(() => pid !== undefined && names().includes(name), 10_000, `the agent to report ${name}`);
  return names();
}

/** Polls `check` until it holds; fails naming `what` after `timeoutMs`. */
export async function waitUntil(check: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

/**
 * Runs the app headless and waits for it to exit. Asynchronous on purpose: the fake servers run
 * in this process and must keep answering while the app runs.
 */
export function runHeadless(
  sb: Sandbox,
  args: string[],
  timeoutMs = 20_000,
  /** Written to the app's stdin, which is then closed (a pipe, as `cat file | agent0 -p` gives); default: /dev/null. */
  stdin?: string | Buffer,
): Promise<{ code: number | null; stdout: string; stderr: string; ms: number }> {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn("node", [BIN, ...args], {
      cwd: sb.project,
      env: sb.env,
      stdio: [stdin === undefined ? "ignore" : "pipe", "pipe", "pipe"],
    });
    if (stdin !== undefined) child.stdin!.end(stdin);
    let stdout = "";
    let stderr = "";
    child.stdout!.setEncoding("utf8").on("data", (d: string) => (stdout += d));
    child.stderr!.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, ms: Date.now() - started });
    });
  });
}

type Closable = { kill(): void } | { close(): Promise<void> };
const closedAlready = new WeakSet<object>();

/**
 * Each test gets a fresh sandbox (handed to `use`); after it, whatever it opened (`opened()`:
 * terminals, fake servers) is closed, even when the test failed, and the sandbox is removed.
 */
export function eachTest(use: (sb: Sandbox) => void, opened: () => (Closable | undefined)[] = () => []): void {
  let sb: Sandbox;
  beforeEach(() => {
    sb = sandbox();
    use(sb);
  });
  afterEach(async () => {
    for (const o of opened()) {
      if (!o || closedAlready.has(o)) continue;
      closedAlready.add(o);
      if ("kill" in o) o.kill();
      else await o.close();
    }
    sb.cleanup();
  });
}

/**
 * The app against a describe's server, `--host` and `--model` given: `open` starts a TUI, kept for
 * `opened` (eachTest's second argument) to close after the test; `headless` runs -p style. `where`
 * is read at each call, so it names the current test's sandbox and server.
 */
export function appOn(
  where: () => { sb: Sandbox; host: string },
  model: string,
): {
  open(args?: string[], opts?: ConstructorParameters<typeof Tui>[2]): Tui;
  headless(args: string[]): ReturnType<typeof runHeadless>;
  opened(): Tui[];
} {
  const tuis: Tui[] = [];
  return {
    open(args = [], opts) {
      const { sb, host } = where();
      const tui = new Tui(sb, ["--host", host, "--model", model, ...args], opts);
      tuis.push(tui);
      return tui;
    },
    headless(args) {
      const { sb, host } = where();
      return runHeadless(sb, [...args, "--host", host, "--model", model]);
    },
    opened: () => tuis.splice(0),
  };
}

/**
 * A sandbox of the test's own, for tests that run concurrently (`describe.concurrent`), where the
 * shared variables of eachTest would be overwritten by the next test. `keep` registers what the
 * test opens; when the test finishes (passed or failed) that is closed and the sandbox removed.
 */
export function ownSandbox(onTestFinished: (fn: () => Promise<void>) => void): {
  sb: Sandbox;
  keep<T extends Closable>(o: T): T;
} {
  const sb = sandbox();
  const opened: Closable[] = [];
  onTestFinished(async () => {
    // Last opened, first closed: the terminal before the fake it talks to.
    for (const o of opened.splice(0).reverse()) {
      if ("kill" in o) o.kill();
      else await o.close();
    }
    sb.cleanup();
  });
  return { sb, keep: (o) => (opened.push(o), o) };
}
