// The built-in slash commands: the UI lists and runs them; skill loading (on both threads) keeps
// their names reserved, so a skill can never shadow one.
export interface SlashCommand {
  /** Without the slash. */
  name: string;
  /** How its argument is written in help, e.g. "[name]" (optional) or "<id>" (required). */
  args?: string;
  help: string;
  /** A skill or command of the user's or the project's with this name runs in its place (Claude Code's /review habit). */
  yields?: boolean;
}

export const slashCommands: readonly SlashCommand[] = [
  { name: "help", help: "list commands and skills" },
  { name: "model", args: "[name]", help: "switch model; without a name, pick from the server's models" },
  { name: "new", help: "start a new session" },
  { name: "clear", help: "clear the conversation: the model starts afresh in this session" },
  { name: "sessions", help: "list saved sessions" },
  { name: "resume", args: "<id>", help: "resume a saved session by id (a prefix is enough)" },
  { name: "context", help: "show what the model was told: files, git, memory, skills, with token estimates" },
  { name: "compact", help: "summarize older messages to free context" },
  { name: "skills", help: "list skills" },
  { name: "memory", help: "list saved memories" },
  {
    name: "permissions",
    args: "[mode|remove <n>]",
    help: "show the mode and the rules with where each comes from; set the mode; remove a rule",
  },
  { name: "agents", help: "list the sub-agent types delegate offers: built in, yours, the project's" },
  { name: "hooks", help: "list the hooks: event, matcher, command and the file each comes from" },
  { name: "init", help: "survey the project and write (or update) AGENTS.md for it" },
  {
    name: "thinking",
    args: "[level [save]]",
    help: "show or hide the model's thinking; with off, on, low, medium, high or max: how much it reasons",
  },
  { name: "theme", args: "[dark|light|ansi16]", help: "show or switch the colour theme (saved to the config)" },
  {
    name: "mcp",
    args: "[restart|trust|untrust <name>]",
    help: "list MCP servers and their tools; restart one; start a project's server (trust) or stop it (untrust)",
  },
  {
    name: "plugins",
    args: "[enable|disable|trust|untrust <name>]",
    help: "list Agent Plugins: where each comes from and what it brings; enable, disable or trust one",
  },
  { name: "undo", help: "restore the files changed in the last turn" },
  {
    name: "rewind",
    help: "go back to before an earlier message: code and conversation, conversation only, or code only (Esc Esc)",
  },
  {
    name: "add-dir",
    args: "[path]",
    help: "let the tools use another folder, by the project's rules (as --add-dir); without a path, list them",
  },
  { name: "diff", help: "show what this session changed in the files, as diffs" },
  {
    name: "review",
    args: "[staged|<base>]",
    help: "review uncommitted changes, the staged ones, or this branch against <base>",
    yields: true,
  },
  { name: "export", args: "[file]", help: "write the conversation as Markdown (default agent0-<session>.md)" },
  { name: "cost", help: "tokens and time per model, and the price for hosted models where it is known" },
  { name: "jobs", args: "[kill <id>]", help: "list background shell commands; stop one" },
  { name: "doctor", help: "what works on this machine: server, model, sandbox, tools, terminal, settings" },
  { name: "quit", help: "save and quit" },
];
