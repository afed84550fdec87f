// The slash commands an editor session offers (`available_commands_update`): the built-ins that
// make sense in an editor, skills and custom commands, and the running MCP servers' prompts. Pure.
import type * as acp from "@agentclientprotocol/sdk";
import { slashCommands } from "../../context/builtin-commands.js";
import { promptCommand, promptUsage } from "../../context/mcp-prompts.js";
import type { Skill } from "../../context/skills.js";
import type { McpServerView } from "../../protocol/mcp-state.js";

/** The built-in commands an editor session runs (the others belong to the TUI). */
export const EDITOR_COMMANDS = ["init", "compact", "undo"] as const;

const hint = (text: string) => (text ? { input: { hint: text } } : {});

export function availableCommands(skills: readonly Skill[], servers: readonly McpServerView[]): acp.AvailableCommand[] {
  const builtins = EDITOR_COMMANDS.flatMap((name) => {
    const c = slashCommands.find((b) => b.name === name);
    return c ? [{ name, description: c.help, ...hint(name === "undo" ? "[force]" : "") }] : [];
  });
  const fromSkills = skills.map((s) => ({
    name: s.name,
    description: s.description,
    ...hint(s.params.map((p) => `<${p}>`).join(" ")),
  }));
  const prompts = servers
    .filter((s) => s.state === "running")
    .flatMap((s) =>
      s.prompts.map((p) => ({
        name: promptCommand(s.name, p.name),
        description: p.description ?? `${s.name} prompt`,
        ...hint(promptUsage(p)),
      })),
    );
  return [...builtins, ...fromSkills, ...prompts];
}
