// `/agents`: the sub-agent types delegate offers, with where each comes from, its tools and model.
import { anthropicModelOf, loadAgentTypes } from "../context/agent-types.js";
import type { ProviderName } from "../protocol/run-config.js";

export function formatAgentTypes(cwd: string, configDir: string, provider: ProviderName): string {
  const { types, warnings } = loadAgentTypes({ cwd, configDir });
  const lines = [`Sub-agent types (${types.length}); the model delegates with delegate(agent_type):`];
  for (const t of types) {
    const model = !t.model
      ? "the session's model"
      : anthropicModelOf(t.model) && provider !== "anthropic"
        ? `the session's model (${t.model} names an Anthropic model)`
        : t.model;
    lines.push(`  ${t.name} — ${t.description}`);
    lines.push(
      `      ${t.source === "built-in" ? "built in" : `${t.scope}: ${t.source}`} · tools: ${t.tools?.join(", ") ?? "all"} · model: ${model}`,
    );
  }
  for (const w of warnings) lines.push(`  ! ${w}`);
  lines.push(
    "Add one: a markdown file with name, description, tools and model in its frontmatter, in .claude/agents/ or .agent0/agents/ (project) or ~/.claude/agents/ (yours).",
  );
  return lines.join("\n");
}
