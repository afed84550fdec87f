// MCP server prompts as slash commands: their names and how the words typed after one become the
// prompt's arguments. Pure, for the TUI (ui/update/mcp.ts) and an editor session (cli/acp/).
import type { McpPromptInfo, McpServerView } from "../protocol/mcp-state.js";

const PROMPT_PREFIX = "mcp__";

/** `mcp__<server>__<prompt>`: the slash command a server prompt is run with. */
export function promptCommand(server: string, prompt: string): string {
  return `${PROMPT_PREFIX}${server}__${prompt}`;
}

/** The running server's prompt a command names (`mcp__server__prompt` or `server:prompt`). */
export function findPrompt(
  servers: readonly McpServerView[],
  head: string,
): { server: string; prompt: McpPromptInfo } | undefined {
  for (const s of servers) {
    if (s.state !== "running") continue;
    for (const p of s.prompts) {
      if (head === promptCommand(s.name, p.name) || head === `${s.name}:${p.name}`)
        return { server: s.name, prompt: p };
    }
  }
  return undefined;
}

/** How a prompt's arguments are written after its command: `<required> [optional]`. */
export function promptUsage(prompt: McpPromptInfo): string {
  return prompt.arguments.map((a) => (a.required ? `<${a.name}>` : `[${a.name}]`)).join(" ");
}

/**
 * Arguments are `name=value` pairs, or plain words given in the prompt's argument order (the
 * last one takes the rest of the line). Missing required ones are named.
 */
export function promptArguments(
  prompt: McpPromptInfo,
  args: string,
): { ok: true; values: Record<string, string> } | { ok: false; missing: string[] } {
  const values: Record<string, string> = {};
  const positional: string[] = [];
  for (const w of args.split(/\s+/).filter(Boolean)) {
    const eq = w.indexOf("=");
    const key = eq > 0 ? w.slice(0, eq) : "";
    if (key && prompt.arguments.some((a) => a.name === key)) values[key] = w.slice(eq + 1);
    else positional.push(w);
  }
  const free = prompt.arguments.filter((a) => !(a.name in values));
  free.forEach((a, i) => {
    const rest = i === free.length - 1 ? positional.slice(i).join(" ") : positional[i];
    if (rest) values[a.name] = rest;
  });
  const missing = prompt.arguments.filter((a) => a.required && !values[a.name]).map((a) => a.name);
  return missing.length ? { ok: false, missing } : { ok: true, values };
}
