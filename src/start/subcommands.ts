// agent0's subcommands (sessions, mcp, plugins, engine, models, doctor, setup, acp, review): each
// loads its module when it runs, so a TUI launch pays for none of them.
import type { Command } from "commander";
import { sessionsDir } from "../context/dirs.js";
import type { HeadlessFlags } from "../cli/headless.js";
import { sanitize } from "../render/sanitize.js";
import type { OwnEnviron } from "../safety/own-environ.js";
import type { Subcommand } from "./options.js";

const subcommand = (name: Subcommand) => name;

/** `environ`: the process's own environment as it started (doctor says which secrets were cleared). */
export function addSubcommands(program: Command, environ: OwnEnviron): void {
  program
    .command(subcommand("sessions"))
    .description("list saved sessions, newest first; `sessions delete <id>` removes one (an id or its unique prefix)")
    .argument("[action]", "delete")
    .argument("[id]", "the session to delete")
    .action(async (action: string | undefined, id: string | undefined) => {
      if (action !== undefined) {
        const { deleteCommand } = await import("../cli/sessions-delete.js");
        process.exitCode = deleteCommand(action, id, sessionsDir());
        return;
      }
      const { formatSessionList, listSessions } = await import("../session/writer.js");
      const { sessions, warnings } = listSessions(sessionsDir());
      for (const w of warnings) process.stderr.write(sanitize(`warning: ${w}\n`));
      // Titles come from prompts and models: printed inert, like everything the TUI shows.
      process.stdout.write(
        sessions.length ? sanitize(formatSessionList(sessions, Date.now())) + "\n" : "No saved sessions yet.\n",
      );
    });

  const mcp = program.command(subcommand("mcp")).description("MCP servers");
  mcp
    .command("list")
    .description("list the configured MCP servers: where from, and whether they are trusted")
    .action(async () => {
      const { printMcpList } = await import("../cli/mcp-list.js");
      process.exitCode = printMcpList(process.cwd(), process.env, (s) => process.stdout.write(s));
    });
  mcp
    .command("serve")
    .description("serve agent0 itself as an MCP server on stdin/stdout (tools: agent0, agent0_reply)")
    .action(async () => {
      const { serveMcp } = await import("../cli/mcp-serve.js");
      process.exitCode = await serveMcp(program.opts<HeadlessFlags>());
    });

  const plugins = program.command(subcommand("plugins")).description("Agent Plugins (agent-plugins.org)");
  plugins
    .command("install <source>")
    .description("copy a plugin's folder, or clone a git URL, into ~/.agents/plugins after checking it")
    .action(async (source: string) => {
      const { installPlugin } = await import("../cli/plugins-install.js");
      const r = await installPlugin(source, process.env);
      for (const line of r.err) process.stderr.write(sanitize(`${line}\n`));
      for (const line of r.out) process.stdout.write(sanitize(`${line}\n`));
      process.exitCode = r.code;
    });
  plugins
    .command("list")
    .description("list the plugins of the user (~/.agents/plugins) and of this project (.agents/plugins)")
    .action(async () => {
      const { listPlugins } = await import("../cli/plugins-install.js");
      const r = listPlugins(process.env);
      for (const line of r.err) process.stderr.write(sanitize(`${line}\n`));
      process.stdout.write(`${r.out}\n`);
    });

  const engine = program.command(subcommand("engine")).description("the built-in engine (llama.cpp), for no server");
  engine
    .command("install")
    .description("install the engine into agent0's data folder (this platform's build only)")
    .option("--cpu", "leave out the GPU builds (CUDA, Vulkan) even where their driver is found")
    .action(async (opts: { cpu?: boolean }) => {
      const { runEngineInstall } = await import("../cli/engine-install.js");
      process.exitCode = await runEngineInstall(process.env, (s) => process.stdout.write(s), opts);
    });

  const models = program
    .command(subcommand("models"))
    .description("the built-in engine's models: the catalogue and what is downloaded (list, pull, rm)");
  const modelsIo = () => {
    const stop = new AbortController();
    // Ctrl+C stops a pull: its part stays and the next pull resumes it.
    process.once("SIGINT", () => stop.abort());
    return {
      env: process.env,
      out: (s: string) => process.stdout.write(sanitize(s)),
      // The progress line's own redraw (CR, erase line) kept; what it shows is made inert.
      err: (s: string) => process.stderr.write(s.split("\r\x1b[2K").map(sanitize).join("\r\x1b[2K")),
      errIsTty: process.stderr.isTTY === true,
      signal: stop.signal,
    };
  };
  models
    .command("list", { isDefault: true })
    .description("list the catalogue and the downloaded models, with sizes and where they are kept")
    .action(async () => {
      const { runModelsList } = await import("../cli/models.js");
      process.exitCode = await runModelsList(modelsIo());
    });
  models
    .command("pull <name>")
    .description("download a model: a catalogue name or hf:<owner>/<repo>[:<quant>] (resumable, sha256-checked)")
    .action(async (name: string) => {
      const { runModelsPull } = await import("../cli/models.js");
      process.exitCode = await runModelsPull(name, modelsIo());
    });
  models
    .command("rm <name>")
    .alias("remove")
    .description("delete a downloaded model")
    .action(async (name: string) => {
      const { runModelsRemove } = await import("../cli/models.js");
      process.exitCode = await runModelsRemove(name, modelsIo());
    });

  program
    .command(subcommand("doctor"))
    .description(
      "what works on this machine: server, model, sandbox, tools, terminal, settings (exit 1 if agent0 cannot run)",
    )
    .action(async () => {
      const [{ runDoctor, formatDoctor }, { terminalSupport }] = await Promise.all([
        import("../cli/doctor.js"),
        import("../ui/runtime/terminal-support.js"),
      ]);
      const checks = await runDoctor({
        cwd: process.cwd(),
        env: process.env,
        environ,
        support: terminalSupport(process.env),
        flags: program.opts<HeadlessFlags>(),
      });
      process.stdout.write(sanitize(formatDoctor(checks)) + "\n");
      process.exitCode = checks.some((c) => c.fatal) ? 1 : 0;
    });

  program
    .command(subcommand("setup"))
    .description("first-run setup: choose the model server (or the built-in engine) and the model; saved to the config")
    .action(async () => {
      const { runSetup } = await import("../cli/setup.js");
      process.exitCode = await runSetup(program.opts<HeadlessFlags>());
    });

  program
    .command(subcommand("acp"))
    .description("serve the Agent Client Protocol on stdin/stdout, for editors (Zed, JetBrains, Neovim …)")
    // The registry's "terminal" auth method: the editor runs the agent's own command with these args.
    .option("--setup", "run `agent0 setup` in this terminal instead (what an editor's terminal sign-in runs)")
    .action(async (opts: { setup?: boolean }) => {
      if (opts.setup) {
        const { runSetup } = await import("../cli/setup.js");
        process.exitCode = await runSetup(program.opts<HeadlessFlags>());
        return;
      }
      const { serveAcp } = await import("../cli/acp/serve.js");
      process.exitCode = await serveAcp(program.opts<HeadlessFlags>());
    });

  program
    .command(subcommand("review"))
    .description("review the working tree's changes, the staged ones (--staged) or this branch against --base <ref>")
    .option("--staged", "review the staged changes only")
    .option("--base <ref>", "review this branch against <ref> (from their merge base)")
    .option("--json", "print one JSON object: the review, the model, usage, the session")
    .action(async (opts: { staged?: boolean; base?: string; json?: boolean }) => {
      const { runReview } = await import("../cli/review.js");
      process.exitCode = await runReview(opts, program.opts<HeadlessFlags>());
    });
}
