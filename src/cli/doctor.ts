// `agent0 doctor` and `/doctor`: what holds on this machine, each with ✓ or ✗ and, for a ✗, what it
// costs and how to fix it. Only facts read here and now: a server that answers, a probe that runs.
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import { loadConfig, type Config } from "../context/config.js";
import { configDir, configFilePath, dataDir, homeDir } from "../context/dirs.js";
import { lookupTrustOf, mcpTrustFile } from "../context/mcp-trust.js";
import { loadSettingsFiles, needsTrust, settingsTrustHash, settingsTrustName } from "../context/settings-files.js";
import type { RunConfig } from "../protocol/run-config.js";
import type { OwnEnviron } from "../safety/own-environ.js";
import { resolveConfig, type CliOptions } from "./config.js";
import type { Check } from "./doctor-check.js";
import { engineChecks } from "./doctor-engine.js";
import { doctorProbes } from "./tool-use.js";

export type { Check } from "./doctor-check.js";

/** What the TUI knows of its terminal from the terminal's own answers (absent for `agent0 doctor`). */
export interface TerminalAnswers {
  syncOutput: boolean;
  keyboard: "legacy" | "kitty";
  theme: string;
}

const TIMEOUT_MS = 1500;

async function getJson(url: string, init: RequestInit = {}): Promise<Record<string, unknown> | undefined> {
  try {
    const res = await fetch(url, { ...init, signal: AbortSignal.timeout(TIMEOUT_MS) });
    if (!res.ok) return undefined;
    return (await res.json()) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

/** A program's first line of `--version` output, or undefined when it does not run. */
function version(file: string, args = ["--version"]): Promise<string | undefined> {
  return new Promise((resolve) => {
    const child = spawn(file, args, { stdio: ["ignore", "pipe", "ignore"], timeout: TIMEOUT_MS });
    let out = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => (out += d));
    child.on("error", () => resolve(undefined));
    child.on("close", (code) => resolve(code === 0 ? out.split("\n")[0]!.trim() : undefined));
  });
}

/** The server agent0 would use, its model and that model's window. */
/** The server and model a launch with these flags would use: flags > environment > config file. */
type ServerInUse = Pick<RunConfig, "provider" | "host" | "baseUrl"> & { model?: string };

function serverInUse(flags: CliOptions, env: NodeJS.ProcessEnv, file: Config): ServerInUse | Check {
  try {
    const c = resolveConfig(flags, file, { interactive: false }, env);
    return { provider: c.provider, host: c.host, baseUrl: c.baseUrl, ...(c.model ? { model: c.model } : {}) };
  } catch (err) {
    const detail = (err as Error).message;
    return {
      ok: false,
      what: "server",
      detail,
      cost: "agent0 does not start",
      fix: "fix the flag or setting named",
      fatal: true,
    };
  }
}

async function serverChecks(env: NodeJS.ProcessEnv, config: ServerInUse): Promise<Check[]> {
  const probes = await doctorProbes();
  const provider = config.provider ?? "ollama";
  if (provider === "anthropic") {
    const key = Boolean(env.ANTHROPIC_API_KEY);
    return [
      {
        ok: key,
        what: "server",
        detail: key
          ? "Anthropic (hosted), ANTHROPIC_API_KEY is set"
          : "Anthropic (hosted), but ANTHROPIC_API_KEY is not set",
        ...(key ? {} : { cost: "no request can be sent", fix: "export ANTHROPIC_API_KEY=…", fatal: true }),
      },
    ];
  }
  if (provider === "openai") {
    const base = (config.baseUrl ?? env.OPENAI_BASE_URL ?? "https://api.openai.com/v1").replace(/\/$/, "");
    const models = await getJson(
      `${base}/models`,
      env.OPENAI_API_KEY ? { headers: { authorization: `Bearer ${env.OPENAI_API_KEY}` } } : {},
    );
    return [
      models
        ? { ok: true, what: "server", detail: `OpenAI-compatible at ${base}` }
        : {
            ok: false,
            what: "server",
            detail: `nothing answers at ${base}/models`,
            cost: "no request can be sent",
            fix: "start the server, or set --base-url",
            fatal: true,
          },
    ];
  }
  const host = probes.resolveOllamaHost(config.host, env);
  const about = await getJson(`${host}/api/version`);
  if (!about) {
    const found = await probes.discoverLocalServers();
    const others = found.map((s) => `${s.name} at ${s.baseUrl}`).join(", ");
    return [
      {
        ok: false,
        what: "server",
        detail: `Ollama does not answer at ${host}${others ? `; found ${others}` : "; no other local server found"}`,
        cost: "no model can answer",
        fix: others
          ? `use it: agent0 --provider openai --base-url ${found[0]!.baseUrl}`
          : "start Ollama (ollama serve) and pull a model (ollama pull qwen3:8b), or let agent0 run one itself: open agent0 and accept its offer, or agent0 -p … --yes",
        fatal: found.length === 0,
      },
    ];
  }
  const checks: Check[] = [{ ok: true, what: "server", detail: `Ollama ${String(about.version ?? "")} at ${host}` }];
  const tags = await getJson(`${host}/api/tags`);
  const names = Array.isArray(tags?.models) ? (tags.models as { name?: string }[]).map((m) => m.name ?? "") : [];
  const model = config.model ?? names[0];
  if (!model) {
    checks.push({
      ok: false,
      what: "model",
      detail: "the server has no model",
      cost: "nothing to run",
      fix: "ollama pull qwen3:8b",
      fatal: true,
    });
    return checks;
  }
  const show = await getJson(`${host}/api/show`, { method: "POST", body: JSON.stringify({ model }) });
  if (!show) {
    checks.push({
      ok: false,
      what: "model",
      detail: `${model} is not on the server`,
      cost: "a run would fail",
      fix: `ollama pull ${model}`,
      fatal: true,
    });
    return checks;
  }
  const info = (show.model_info ?? {}) as Record<string, unknown>;
  const window = Object.entries(info).find(([k]) => k.endsWith(".context_length"))?.[1];
  checks.push({
    ok: true,
    what: "model",
    detail: `${model}${typeof window === "number" ? `, window ${window.toLocaleString("en-US")} tokens` : ""}`,
  });
  return checks;
}

async function sandboxChecks(environ: OwnEnviron): Promise<Check[]> {
  const probes = await doctorProbes();
  const checks: Check[] = [];
  if (process.platform !== "linux") {
    checks.push({
      ok: false,
      what: "sandbox",
      detail: `bubblewrap is Linux-only (${process.platform})`,
      cost: "--sandbox refuses to start; a command's children are ended by the process tag at quit, and one that clears its environment may outlive agent0",
      fix: "run agent0 in Linux (a VM, or WSL2) where these matter",
    });
  } else {
    const problem = probes.sandboxProblem();
    checks.push(
      problem
        ? {
            ok: false,
            what: "sandbox (bubblewrap, user namespaces)",
            detail: problem,
            cost: "--sandbox refuses to start",
            fix: "sudo apt-get install bubblewrap (or allow unprivileged user namespaces)",
          }
        : { ok: true, what: "sandbox (bubblewrap, user namespaces)", detail: "bwrap runs and makes namespaces" },
    );
    let seccomp: string | undefined;
    try {
      probes.unixSocketFilter();
    } catch (err) {
      seccomp = (err as Error).message;
    }
    checks.push(
      seccomp
        ? {
            ok: false,
            what: "seccomp filter",
            detail: seccomp,
            cost: "a sandboxed command may open Unix sockets",
            fix: "run on x86-64 or arm64",
          }
        : { ok: true, what: "seccomp filter", detail: `built for ${process.arch}` },
    );
    checks.push(
      problem
        ? {
            ok: false,
            what: "pid namespace per command",
            detail: "not available (no working bwrap)",
            cost: "children are ended by the process tag at the run's end, Esc and quit; one that clears its environment (env -i) may outlive agent0",
            fix: "sudo apt-get install bubblewrap",
          }
        : { ok: true, what: "pid namespace per command", detail: "each command's children end with it" },
    );
  }
  checks.push(
    environ.kind === "exposed"
      ? {
          ok: false,
          what: "agent0's own secrets",
          detail: `${environ.names.join(", ")} readable in agent0's starting environment (${environ.why})`,
          cost: "a command could read them with ps eww or /proc/<pid>/environ",
          fix: "keep API keys out of the environment agent0 starts in (a provider's key file or the config)",
        }
      : {
          ok: true,
          what: "agent0's own secrets",
          detail:
            environ.kind === "hidden"
              ? `${environ.names.length} cleared from its starting environment`
              : "none in its environment",
        },
  );
  return checks;
}

async function toolChecks(): Promise<Check[]> {
  const probes = await doctorProbes();
  const rg = await probes.bundledRgPath();
  const rgVersion = rg ? await version(rg) : undefined;
  const git = await version("git");
  return [
    rgVersion
      ? { ok: true, what: "ripgrep", detail: rgVersion }
      : {
          ok: false,
          what: "ripgrep",
          detail: "the bundled rg does not run",
          cost: "grep_files searches in JavaScript, slower on big trees",
          fix: "npm install again in agent0's folder",
        },
    git
      ? { ok: true, what: "git", detail: git }
      : {
          ok: false,
          what: "git",
          detail: "not found",
          cost: "no git facts for the model, no /diff of the branch",
          fix: "install git",
        },
  ];
}

function terminalChecks(
  env: NodeJS.ProcessEnv,
  answers: TerminalAnswers | undefined,
  support: { hyperlinks: boolean; progress: boolean },
): Check[] {
  const term = env.TERM ?? "(unset)";
  const colours =
    env.COLORTERM === "truecolor" || env.COLORTERM === "24bit"
      ? "true colour"
      : /256/.test(term)
        ? "256 colours"
        : "16 colours or fewer";
  const checks: Check[] = [
    {
      ok: "info",
      what: "terminal",
      detail: `TERM=${term}, ${colours}${env.TERM_PROGRAM ? `, ${env.TERM_PROGRAM}` : ""}`,
    },
    {
      ok: "info",
      what: "links (OSC 8)",
      detail: support.hyperlinks ? "shown" : "not known to be shown here (FORCE_HYPERLINK=1 turns them on)",
    },
    {
      ok: "info",
      what: "progress (OSC 9;4)",
      detail: support.progress ? "shown" : 'not known to be shown here ("terminalProgress": true turns it on)',
    },
  ];
  if (answers) {
    checks.push(
      {
        ok: "info",
        what: "synchronized output",
        detail: answers.syncOutput
          ? "the terminal knows it: frames never tear"
          : "not answered: frames are drawn as they come",
      },
      {
        ok: "info",
        what: "keyboard",
        detail:
          answers.keyboard === "kitty"
            ? "kitty protocol: Shift+Enter is a new line"
            : "legacy: Shift+Enter arrives as Enter (use Alt+Enter or Ctrl+J)",
      },
      { ok: "info", what: "theme", detail: answers.theme },
    );
  } else {
    checks.push({
      ok: "info",
      what: "synchronized output, keyboard protocol",
      detail: "asked of the terminal when the TUI starts: /doctor there shows the answers",
    });
  }
  return checks;
}

function fileChecks(cwd: string, env: NodeJS.ProcessEnv): Check[] {
  const file = configFilePath(env);
  const loaded = loadConfig(file);
  const broken = loaded.warnings.find((w) => /not valid JSON|expected a JSON object/.test(w));
  const checks: Check[] = [
    broken
      ? {
          ok: false,
          what: "config",
          detail: broken,
          cost: "every setting in it is ignored",
          fix: `fix the JSON in ${file}`,
          fatal: true,
        }
      : {
          ok: true,
          what: "config",
          detail: fs.existsSync(file)
            ? `${file}${loaded.warnings.length ? ` (${loaded.warnings.length} key(s) ignored: ${loaded.warnings.join("; ")})` : ""}`
            : `${file} (none: the defaults)`,
        },
  ];
  const raw = loaded.config as { hooks?: unknown; permissions?: unknown; statusLine?: unknown };
  const settings = loadSettingsFiles(
    cwd,
    { file, hooks: raw.hooks, permissions: raw.permissions, statusLine: raw.statusLine },
    homeDir(env),
  );
  const trustFile = mcpTrustFile(configDir(env));
  for (const s of settings.files) {
    if (s.scope === "user") {
      checks.push({ ok: true, what: "settings", detail: `${s.file} (yours: in effect)` });
      continue;
    }
    const trusted =
      !needsTrust(s) || lookupTrustOf(trustFile, cwd, settingsTrustName(cwd, s.file), settingsTrustHash(s)) === "allow";
    checks.push({
      ok: "info",
      what: "project settings",
      detail: `${s.file}: ${trusted ? "in effect" : "waits for your yes in the TUI (hooks, allow rules and status line)"}`,
    });
  }
  for (const w of settings.warnings)
    checks.push({ ok: false, what: "settings", detail: w, cost: "that part is skipped", fix: "fix the file" });
  return checks;
}

/** Every check, in the order shown. */
export async function runDoctor(opts: {
  cwd: string;
  env: NodeJS.ProcessEnv;
  environ: OwnEnviron;
  support: { hyperlinks: boolean; progress: boolean };
  answers?: TerminalAnswers;
  /** The launch's flags (--host, --model, --provider, --base-url) or the TUI session's choices. */
  flags?: CliOptions;
}): Promise<Check[]> {
  const files = fileChecks(opts.cwd, opts.env);
  const { config } = loadConfig(configFilePath(opts.env));
  const server = serverInUse(opts.flags ?? {}, opts.env, config);
  // `--provider embedded`: the engine and the model file are the server (no address to ask).
  const engineModel = !("ok" in server) && server.provider === "embedded" ? (server.model ?? "") : undefined;
  const [servers, sandbox, tools] = await Promise.all([
    "ok" in server ? [server] : engineModel !== undefined ? [] : serverChecks(opts.env, server),
    sandboxChecks(opts.environ),
    toolChecks(),
  ]);
  return [
    { ok: "info", what: "platform", detail: `${os.type()} ${os.release()} ${process.arch}, node ${process.version}` },
    ...servers,
    ...engineChecks(dataDir(opts.env), opts.env, engineModel),
    ...sandbox,
    ...tools,
    ...terminalChecks(opts.env, opts.answers, opts.support),
    ...files,
  ];
}

/** The report as lines; a ✗ gets what it costs and the fix under it. */
export function formatDoctor(checks: readonly Check[]): string {
  const lines: string[] = [];
  for (const c of checks) {
    const mark = c.ok === true ? "✓" : c.ok === false ? "✗" : "·";
    lines.push(`${mark} ${c.what}: ${c.detail}`);
    if (c.ok === false && c.cost) lines.push(`    costs: ${c.cost}`);
    if (c.ok === false && c.fix) lines.push(`    fix: ${c.fix}`);
  }
  const fatal = checks.filter((c) => c.fatal);
  lines.push(
    "",
    fatal.length
      ? `The default path cannot work here: ${fatal.map((c) => c.what).join(", ")}.`
      : "agent0 can run here.",
  );
  return lines.join("\n");
}
