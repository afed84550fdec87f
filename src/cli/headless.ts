// `agent0 -p "prompt"`: a one-shot run. start/one-shot.ts loads this module when bin/agent0.js
// could read the command line itself, main.ts when commander had to. Everything a plain one-shot
// needs is imported here statically; what only some runs need (files a prompt mentions, a
// resumed session, MCP servers) loads when a run needs it. tests/lint/headless-imports.test.ts
// keeps yaml, the MCP SDK, marked and blessed off this path.
import { logsDir, sessionsDir } from "../context/dirs.js";
import { fileMentionsIn, resourceMentionsIn } from "../context/mention-parse.js";
import { sanitize } from "../render/sanitize.js";
import { createLogger } from "../session/log.js";
import { SessionRecorder } from "../session/recorder.js";
import { takeAgent } from "./agent-start.js";
import { fail } from "./app-process.js";
import type { CliOptions } from "./config.js";
import { runHeadless, type OutputFormat } from "./print.js";
import { loadProjectContext } from "./project-context.js";
import { resumeFromFlags, type ResumeFlags } from "./resume.js";
import { startup } from "./startup.js";
import { readPipedInput, sizeText, withPipedText } from "./stdin-input.js";

export interface HeadlessFlags extends CliOptions, ResumeFlags {
  outputFormat: OutputFormat;
  /** `--yes`: accept the engine offer (install, download) when no server answers. */
  yes?: boolean;
}

/** Runs `prompt` headless, then exits with its code. */
export async function headless(prompt: string, flags: HeadlessFlags): Promise<never> {
  // The agent's code loads while the config, the session and the project context are read
  // (bin/agent0.js started it before anything else when it saw -p).
  const started = takeAgent();
  let boot;
  try {
    boot = startup(flags, false);
  } catch (err) {
    fail((err as Error).message);
  }
  const { config } = boot;
  // Piped stdin is read while the rest starts; binary data stops the run before any model call.
  const piping = readPipedInput();
  for (const w of boot.warnings) process.stderr.write(sanitize(`warning: ${w}\n`));
  // Headless runs cannot ask: a project's own servers start only when trusted before.
  for (const s of boot.mcp.selection.pending) {
    process.stderr.write(
      sanitize(
        `notice: MCP server ${s.name} (${s.file}) is not trusted in this project — skipped. Approve it in the TUI, or pass --trust-project-mcp.\n`,
      ),
    );
  }
  for (const s of boot.mcp.selection.denied) {
    process.stderr.write(
      sanitize(`notice: MCP server ${s.name} (${s.file}) was declined for this project — skipped.\n`),
    );
  }
  for (const s of [...boot.mcp.settings.pending, ...boot.mcp.settings.denied]) {
    process.stderr.write(
      sanitize(
        `notice: ${s.file} is not trusted in this project — its hooks do not run and its allow rules do not count (its deny and ask rules do). Trust it in the TUI.\n`,
      ),
    );
  }
  for (const p of [...boot.mcp.plugins.pending, ...boot.mcp.plugins.denied]) {
    process.stderr.write(
      sanitize(
        `notice: Agent Plugin ${p.name} (${p.root}) is not trusted in this project — its skills and MCP servers are off. Trust it in the TUI (/plugins), or pass --trust-project-mcp.\n`,
      ),
    );
  }
  const dir = sessionsDir();
  const recorder = new SessionRecorder({
    dir,
    fields: () => config,
    onSaveState: (state) => process.stderr.write(sanitize(`${state.saved ? "" : "warning: "}${state.text}\n`)),
  });
  const resumed = await resumeFromFlags(flags, recorder, dir, config.cwd);
  for (const n of resumed.notices) process.stderr.write(sanitize(`warning: ${n}\n`));
  if (!flags.model && resumed.model) config.model = resumed.model;
  // The agent asks the server about the model while the project context is read.
  started.agent.send({ type: "prefetch-model-info", config });
  // The project context (git runs meanwhile) and the prompt's files are read at the same time.
  const loadingContext = loadProjectContext(config.cwd, process.env, config.addDirs, config.pluginSkills);
  // `@path` attaches the file and `@server:uri` an MCP server's resource, as in the TUI.
  const servers = Object.keys(config.mcpServers ?? {});
  const mentioned = fileMentionsIn(prompt, servers);
  const withFiles = mentioned.length
    ? await import("./attach.js").then(({ readMentions }) => readMentions(prompt, config.cwd, mentioned))
    : { content: prompt, problems: [] };
  for (const p of withFiles.problems) process.stderr.write(`warning: ${p}\n`);
  // An image scaled down to fit; a model that cannot see it stops the run before any request (agent/loop.ts).
  const images = "images" in withFiles ? withFiles.images : undefined;
  for (const n of ("notes" in withFiles ? withFiles.notes : undefined) ?? []) process.stderr.write(`notice: ${n}\n`);
  const piped = await piping.catch((err: Error) => fail(`could not read stdin: ${err.message}`));
  if (piped.kind === "binary")
    fail(`stdin is binary data (${sizeText(piped.bytes)}): only text can go with the prompt. Nothing was sent.`);
  if (piped.kind === "empty") process.stderr.write("notice: stdin is empty: only the prompt is sent.\n");
  const withStdin =
    piped.kind === "text"
      ? withPipedText(
          withFiles.content,
          piped,
          (await import("../safety/secret-files.js")).projectSecretValues(config.cwd),
        )
      : undefined;
  if (withStdin?.note) process.stderr.write(`warning: ${withStdin.note}\n`);
  const context = await loadingContext;
  for (const w of context.warnings) process.stderr.write(sanitize(`warning: ${w}\n`));
  config.systemPrompt = context.systemPrompt;
  config.systemPromptLean = context.systemPromptLean;
  process.on("SIGINT", () => process.exit(130)); // the "exit" handler ends the commands
  const code = await runHeadless({
    started,
    prompt: withStdin?.content ?? withFiles.content,
    typed: withStdin?.typed ?? prompt,
    images,
    resources: resourceMentionsIn(prompt, servers),
    config,
    conversation: resumed.conversation,
    format: flags.outputFormat,
    yes: flags.yes === true,
    recorder,
    dir,
    logger: createLogger(logsDir()),
  });
  // Exit as soon as the answer is out: an idle keep-alive socket must not hold a script up.
  await new Promise<void>((r) => process.stdout.write("", () => r()));
  process.exit(code);
}
