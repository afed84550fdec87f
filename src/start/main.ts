// The command line read by commander: the TUI (its first frame through boot.ts), `-p` when bin
// could not read the line whole, and the subcommands. bin/agent0.js calls `start`.
import { Command } from "commander";
import { logsDir, sessionsDir } from "../context/dirs.js";
import { slashCommands } from "../ui/slash-commands.js";
import type { CliOptions } from "../cli/config.js";
import { placeOptionalFlags } from "./options.js";
import { addSubcommands } from "./subcommands.js";
import { addOptions } from "./commander-options.js";
import type { SaveState } from "../session/recorder.js";
import type { OutputFormat } from "../cli/print.js";
import { restoreTerminal } from "../ui/runtime/restore.js";
import { markBench } from "../ui/runtime/bench-probes.js";
import { adoptProcessState, type ProcessState } from "../ui/runtime/process-state.js";
import { fail, guardProcess } from "../cli/app-process.js";
import { resumeFromFlags } from "../cli/resume.js";
import { packageVersion } from "../cli/version.js";

interface Flags extends CliOptions {
  print?: string;
  outputFormat: OutputFormat;
  resume?: string;
  session?: string;
  continue?: boolean;
}

markBench("main-loaded");
const ownEnviron = guardProcess();

const program = new Command()
  .name("agent0")
  .description("A full-screen terminal coding agent for local models (Ollama by default).")
  .version(packageVersion(), "-v, --version")
  .argument("[prompt...]", "a first message to send when the TUI opens")
  // A usage error after the boot frame is up (bin/agent0.js) is printed on the normal screen.
  .configureOutput({
    writeErr: (text) => {
      restoreTerminal();
      process.stderr.write(text);
    },
  })
  .addHelpText(
    "after",
    `
Keys: Enter send · Alt+Enter/Ctrl+J newline · Esc stop · PgUp/PgDn/Home/End scroll · Up/Down history
      Ctrl+R search history · Shift+Tab mode (ask/auto-edit/plan) · Ctrl+T thinking · Ctrl+C stop/quit
      Ctrl+D quit · / command menu · @path attach a file · !cmd run a shell command
Commands inside the app: ${slashCommands.map((c) => `/${c.name}`).join(" ")}

Environment: OLLAMA_HOST, AGENT_MODEL, ANTHROPIC_API_KEY, ANTHROPIC_BASE_URL, OPENAI_API_KEY, OPENAI_BASE_URL
Config file: $XDG_CONFIG_HOME/agent0/config.json (default ~/.config/agent0/config.json)

Examples:
  agent0                          open the TUI in this folder
  agent0 -p "explain src/main.ts" print an answer and exit
  agent0 --resume 3f2a            reopen a saved session
  agent0 sessions                 list saved sessions
  agent0 doctor                   what works on this machine, and how to fix what does not
  agent0 setup                    choose the model server and model (first run)
  agent0 acp                      serve an editor over the Agent Client Protocol
  agent0 mcp serve                serve other agents over MCP
  agent0 plugins install <path>   install an Agent Plugin (a folder or a git URL) in ~/.agents/plugins`,
  )
  .action(async (words: string[], flags: Flags) => {
    process.exitCode = await main(words.join(" "), flags);
  });
addOptions(program);
addSubcommands(program, ownEnviron);

async function main(firstPrompt: string, flags: Flags): Promise<number> {
  if (flags.print !== undefined) {
    const { headless } = await import("../cli/headless.js");
    return headless(flags.print, flags);
  }
  if (!process.stdin.isTTY || !process.stdout.isTTY) {
    fail('the TUI needs a terminal; use -p "prompt" to run headless.');
  }
  // The first frame comes from flags and environment alone; the config file, the session and
  // the project context load while it is on screen (DESIGN.md §5: launch to first frame).
  // bin/agent0.js has usually painted it already, before this module loaded (boot.ts).
  // heap.ts (node:v8, node:vm) only here: --version and the subcommands never load it.
  const [{ bootModel, resumes, showBootScreen, takeEarlyBoot }, { settleUiHeap }] = await Promise.all([
    import("./boot.js"),
    import("../ui/runtime/heap.js"),
  ]);
  // A resumed session's first frame is the end of its conversation: as bin's boot frame read and
  // built it, when it did (the file is read once per launch).
  const peek = resumes(flags) ? (await import("../session/peek.js")).peekSession : undefined;
  let first;
  try {
    first = bootModel(flags, peek, takeEarlyBoot());
  } catch (err) {
    fail((err as Error).message);
  }
  const model = first.model;
  const bootScreen = await showBootScreen(model);
  settleUiHeap();
  const { runApp } = await import("../ui/runtime/loop.js");
  let current = model;
  // Set by runApp at once: errors found while saving show up in the transcript.
  let show: ((level: "info" | "warn" | "error", text: string) => void) | undefined;
  let sendSaveState: ((state: SaveState) => void) | undefined;
  const boot = new Promise<void>((r) => setImmediate(r)).then(async () => {
    const [{ startup }, { SessionRecorder }] = await Promise.all([
      import("../cli/startup.js"),
      import("../session/recorder.js"),
    ]);
    let b;
    try {
      b = startup(flags, true);
    } catch (err) {
      fail((err as Error).message);
    }
    const dir = sessionsDir();
    const notices: string[] = [];
    const recorder = new SessionRecorder({
      dir,
      fields: () => current.config,
      onSaveState: (state) => (sendSaveState ? sendSaveState(state) : notices.push(state.text)),
    });
    const resumed = await resumeFromFlags(flags, recorder, dir, b.config.cwd, first.read);
    if (!flags.model && resumed.model) b.config.model = resumed.model;
    const [{ createLogger }, { createServices }, { loadProjectContext }, { InputHistory, historyFile }] =
      await Promise.all([
        import("../session/log.js"),
        import("../cli/services.js"),
        import("../cli/project-context.js"),
        import("../cli/input-history.js"),
      ]);
    const history = new InputHistory(historyFile(b.config.dataDir, b.config.cwd));
    const { terminalSupport, themeFromEnvironment } = await import("../ui/runtime/terminal-support.js");
    const backgroundHint = themeFromEnvironment(process.env);
    // Asked beside the project's context, so it adds no wait (a bwrap probe, once per machine when it fails).
    const told = import("../cli/protection-notice.js").then(({ protectionNotice }) =>
      protectionNotice(b.config.dataDir),
    );
    const context = await loadProjectContext(b.config.cwd, process.env, b.config.addDirs, b.config.pluginSkills);
    const protection = await told.catch(() => undefined);
    if (protection) notices.push(protection);
    b.config.systemPrompt = context.systemPrompt;
    b.config.systemPromptLean = context.systemPromptLean;
    const { createMcpSession } = await import("../cli/mcp-session.js");
    const mcp = createMcpSession(b.mcp, { cwd: b.config.cwd, trustProject: flags.trustProjectMcp === true });
    const services = createServices({
      ownEnviron,
      mcp,
      recorder,
      dir,
      config: () => current.config,
      logger: createLogger(logsDir()),
      onError: (text) => (show ? show("error", text) : notices.push(text)),
      history,
    });
    let pastInputs: string[] = [];
    try {
      pastInputs = history.load();
    } catch (err) {
      notices.push(`Could not read the input history: ${(err as Error).message}`);
    }
    return {
      services,
      tickMs: Number(flags.tickMs ?? b.file.tickMs) || 100,
      mouse: b.file.mouse === true,
      version: packageVersion(),
      ready: {
        type: "boot-ready" as const,
        config: b.config,
        sessionId: recorder.id,
        conversation: resumed.conversation,
        tokensUsed: resumed.tokensUsed,
        toolOutputLines: b.file.toolOutputLines,
        skills: context.skills,
        promptParts: context.promptParts,
        warnings: [...b.warnings, ...context.warnings, ...resumed.notices, ...notices],
        history: pastInputs,
        notify: b.file.notify,
        steer: b.file.steer,
        idleNotifyMs: b.file.messageIdleNotifThresholdMs,
        mcp: mcp.configured().mcp,
        terminal: terminalSupport(process.env, b.file.terminalProgress),
        ...(b.file.theme ? { theme: b.file.theme } : {}),
        ...(backgroundHint ? { backgroundHint } : {}),
      },
    };
  });
  let result;
  try {
    result = await runApp({
      model,
      boot,
      tickMs: Number(flags.tickMs) || 100,
      initialPrompt: firstPrompt || undefined,
      onUpdate: (m) => (current = m),
      bootScreen,
      bindNotify: (fn) => (show = fn),
      bindSaveState: (fn) => (sendSaveState = fn),
    });
  } catch (err) {
    fail((err as Error).message);
  }
  // The truth about the session: saved (and how to resume it), or what was not and where a copy went.
  if (result.session) (result.session.ok ? process.stdout : process.stderr).write(result.session.text + "\n");
  if (result.summary) process.stdout.write(`${result.summary}\n`);
  return result.session && !result.session.ok ? 1 : 0;
}

/**
 * For bin/agent0.js: runs the command line. `handover`: what boot's copy of the first frame's
 * modules built (start/boot.ts `handOver`), when bin painted the boot frame before this loaded.
 */
export async function start(handover?: ProcessState): Promise<void> {
  if (handover) adoptProcessState(handover);
  await program.parseAsync(placeOptionalFlags(process.argv.slice(2)), { from: "user" });
}
