import type { SkillSummary } from "../context/skill-parse.js";

export { slashCommands, type SlashCommand } from "../context/builtin-commands.js";
import type { SlashCommand } from "../context/builtin-commands.js";
import { editDistance } from "../render/edit-distance.js";

function row(left: string, help: string, width: number): string {
  return `  ${left.padEnd(width)}  ${help}`;
}

/** The /help text: every command, then every skill, in aligned columns. */
export function formatHelp(commands: readonly SlashCommand[], skills: readonly SkillSummary[]): string {
  const commandLefts = commands.map((c) => (c.args ? `/${c.name} ${c.args}` : `/${c.name}`));
  const skillLefts = skills.map((s) => [`/${s.name}`, ...s.params.map((p) => `<${p}>`)].join(" "));
  const width = Math.max(0, ...commandLefts.map((l) => l.length), ...skillLefts.map((l) => l.length));
  const out = ["Commands:", ...commands.map((c, i) => row(commandLefts[i]!, c.help, width))];
  out.push("", "Skills:");
  if (skills.length === 0) out.push("  (none)");
  else out.push(...skills.map((s, i) => row(skillLefts[i]!, s.description, width)));
  return out.join("\n");
}

/** The keys, for /help (README's key table says the same). */
export const KEYS: readonly [string, string][] = [
  ["Enter", "send (during a run: reaches the model at its next step)"],
  [
    "Alt+Enter, Ctrl+J",
    "new line (Alt+Enter during a run: send after the run ends; Up on an empty input takes it back)",
  ],
  ["Esc", "stop the run"],
  ["Ctrl+C", "stop the run; idle: clear the input; twice on an empty input: quit"],
  ["Ctrl+D", "quit (on an empty input)"],
  ["Ctrl+O", "show or fold tool output"],
  ["Ctrl+T", "show or fold the model's thinking"],
  ["Ctrl+G", "edit the input in $VISUAL / $EDITOR"],
  ["PgUp / PgDn, wheel", "scroll the transcript"],
  ["Ctrl+Home / Ctrl+End", "transcript top / follow new output (Home/End on an empty input)"],
  ["Home / End, Ctrl+A / Ctrl+E", "start / end of the input line"],
  ["Alt+← / Alt+→", "move by word"],
  ["Ctrl+W, Alt+Backspace", "delete the word before the cursor"],
  ["Ctrl+U / Ctrl+K", "delete to the start / end of the line"],
  ["Up / Down", "earlier inputs (move between lines in a multi-line input)"],
  ["Tab", "complete commands and skills"],
];

export function formatKeys(keys: readonly (readonly [string, string])[] = KEYS): string {
  const width = Math.max(0, ...keys.map(([k]) => k.length));
  return ["Keys:", ...keys.map(([k, help]) => row(k, help, width))].join("\n");
}

/** The hint shown (instead of sending anything to the model) for an unknown `/name`. */
export function unknownCommandHint(name: string, known: readonly string[]): string {
  const close = known
    .map((k) => ({ k, d: k.startsWith(name) ? 0 : editDistance(name, k) }))
    .filter((x) => x.d <= 2)
    .sort((a, b) => a.d - b.d || a.k.localeCompare(b.k))[0];
  const guess = close ? ` — did you mean /${close.k}?` : ".";
  return `Unknown command /${name}${guess} Type /help for the list.`;
}
