#!/usr/bin/env node
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { Command, Option } from "commander";
import type { ConversationMessage } from "./core/events.js";
import { createLogger } from "./core/log.js";
import { logsDir, sessionsDir } from "./core/paths.js";
import { formatSessionList, latestSessionFor, listSessions } from "./core/session.js";
import { slashCommands } from "./context/slash.js";
import { startup, type CliOptions } from "./startup.js";
import { createServices, openSaved, type SessionState } from "./services.js";
import { runHeadless, type OutputFormat } from "./headless.js";
import { restoreTerminal } from "./app/terminal.js";

const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version: string };

interface Flags extends CliOptions {
  print?: string;
  outputFormat: OutputFormat;
  resume?: string;
  session?: string;
  continue?: boolean;
}

function fail(message: string): never {
  restoreTerminal();
  process.stderr.write(`agent0: ${message}\n`);
  process.exit(1);
}

process.on("uncaughtException", (err) => fail(`unexpected error: ${err.stack ?? err.message}`));
process.on("unhandledRejection", (err) => fail(`unexpected error: ${(err as Error)?.stack ?? String(err)}`));

const program = new Command()
  .name("agent0")
  .description("A full-screen terminal coding agent for local models (Ollama by default).")
  .version(pkg.version, "-v, --version")
  .argument("[prompt...]", "a first message to send when the TUI opens")
  .option("-p, --print <prompt>", "run headless: print the final answer and exit")
  .addOption(new Option("--output-format <format>", "headless output").choices(["text", "json", "stream-json"]).default("text"))
  .option("-m, --model <name>", "model name, or provider/model (e.g. anthropic/claude-sonnet-4-5)")
  .option("--host <url>", "Ollama host (default $OLLAMA_HOST or http://127.0.0.1:11434)")
  .addOption(new Option("--provider <name>", "model provider").choices(["ollama", "anthropic", "openai"]))
  .option("--base-url <url>", "base URL of an Anthropic or OpenAI-compatible server")
  .addOption(new Option("--permission-mode <mode>", "when to ask before changes").choices(["ask", "auto-edit", "yolo"]))
  .option("--yolo", "never ask for permission (same as --permission-mode yolo)")
  .option("-r, --resume <id>", "resume a saved session by id or unique prefix")
  .option("--session <id>", "same as --resume")
  .option("-c, --continue", "continue the newest session of this folder")
  .option("--num-ctx-cap <tokens>", "upper bound for num_ctx (default 32768)")
  .option("--keep-alive <duration>", "how long Ollama keeps the model loaded (e.g. 10m, -1)")
  .option("--tick-ms <ms>", "how often agent output is painted (default 100)")
  .addHelpText(
    "after",
    `
Keys: Enter send · Alt+Enter/Ctrl+J newline · Esc stop · PgUp/PgDn/Home/End scroll · Up/Down history
      Ctrl+T thinking · Tab complete · Ctrl+C stop/quit · Ctrl+D quit
Commands inside the app: ${slashCommands.map((c) => `/${c.name}`).join(" ")}

Examples:
  agent0                          open the TUI in this folder
  agent0 -p "explain src/main.ts" print an answer and exit
  agent0 --resume 3f2a            reopen a saved session
  agent0 sessions                 list saved sessions`,
  )
  .action(async (words: string[], flags: Flags) => {
    process.exitCode = await main(words.join(" "), flags);
  });

program
  .command("sessions")
  .description("list saved sessions, newest first")
  .action(() => {
    const { sessions, warnings } = listSessions(sessionsDir());
    for (const w of warnings) process.stderr.write(`warning: ${w}\n`);
    process.stdout.write(sessions.length ? formatSessionList(sessions, Date.now()) + "\n" : "No saved sessions yet.\n");
  });

async function main(firstPrompt: string, flags: Flags): Promise<number> {
  const headless = flags.print !== undefined;
  let boot;
  try {
    boot = await startup(flags, !headless);
  } catch (err) {
    fail((err as Error).message);
  }
  const { config } = boot;
  for (const w of boot.warnings) process.stderr.write(`warning: ${w}\n`);
  const dir = sessionsDir();
  const state: SessionState = { dir, id: randomUUID() };
  let conversation: ConversationMessage[] = [];
  const resumeId = flags.resume ?? flags.session;
  if (resumeId || flags.continue) {
    let target = resumeId;
    if (!target) {
      const latest = latestSessionFor(dir, config.cwd);
      if (!latest) fail(`No saved session for ${config.cwd} yet.`);
      target = latest.id;
    }
    const opened = openSaved(dir, target);
    if (!opened.ok) fail(opened.error);
    state.writer = opened.writer;
    state.id = opened.writer.id;
    conversation = opened.conversation;
    if (!flags.model && opened.model) config.model = opened.model;
  }
  const logger = createLogger(logsDir());

  if (headless) {
    process.on("SIGINT", () => process.exit(130));
    const code = await runHeadless({ prompt: flags.print!, config, conversation, format: flags.outputFormat, session: state, logger });
    // Exit as soon as the answer is out: an idle keep-alive socket must not hold a script up.
    await new Promise<void>((r) => process.stdout.write("", () => r()));
    process.exit(code);
  }

  if (!process.stdin.isTTY || !process.stdout.isTTY) {
    fail("the TUI needs a terminal; use -p \"prompt\" to run headless.");
  }
  const { runApp } = await import("./app/runtime.js");
  const { init } = await import("./app/update.js");
  const notices: string[] = [...boot.warnings];
  const services = createServices({
    state,
    config: () => current.config,
    logger,
    promptParts: boot.promptParts,
    newId: () => randomUUID(),
    onError: (text) => notices.push(text),
  });
  const model = init({
    width: process.stdout.columns ?? 80,
    height: process.stdout.rows ?? 24,
    now: Date.now(),
    config,
    sessionId: state.id,
    skills: boot.skills,
    completions: [...slashCommands.map((c) => c.name), ...boot.skills.map((s) => s.name)],
    conversation,
  });
  let current = model;
  const tickMs = Number(flags.tickMs ?? boot.file.tickMs) || 100;
  const result = await runApp({
    model,
    services,
    tickMs,
    startCmds: [{ type: "probe", config: { ...config } }],
    initialPrompt: firstPrompt || undefined,
    onUpdate: (m) => (current = m),
  });
  if (result.saved) {
    process.stdout.write(`Session ${result.sessionId} saved — resume with: agent0 --resume ${result.sessionId}\n`);
  }
  return 0;
}

await program.parseAsync(process.argv);
