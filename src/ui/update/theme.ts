// The colour theme: chosen by the config or /theme, else from the terminal's background.
import type { Model, ThemeSource } from "../model.js";
import type { Cmd } from "../msg.js";
import { COLOUR_THEMES, type ColourTheme } from "../../render/theme.js";
import { addEntry } from "./transcript.js";

const RANK: Record<ThemeSource, number> = { default: 0, environment: 1, terminal: 2, config: 3 };

/** `name` from `source`, unless a stronger source chose already (the user's choice is never undone). */
export function chooseTheme(m: Model, name: ColourTheme, source: ThemeSource): void {
  if (RANK[source] < RANK[m.theme.source]) return;
  m.theme = { name, source };
}

/** `/theme [dark|light|ansi16]`: shows the themes, or switches and saves the choice to the config. */
export function themeCommand(m: Model, arg: string, cmds: Cmd[]): void {
  const name = arg.trim().toLowerCase();
  if (!name) {
    const how =
      m.theme.source === "config" ? "chosen" : m.theme.source === "default" ? "the default" : "from the terminal";
    addEntry(m, {
      kind: "notice",
      level: "info",
      text: `Theme: ${m.theme.name} (${how}). /theme ${COLOUR_THEMES.join(" | ")} switches and saves it; ansi16 uses the terminal's own 16 colours.`,
    });
    return;
  }
  if (!(COLOUR_THEMES as readonly string[]).includes(name)) {
    addEntry(m, { kind: "notice", level: "warn", text: `No theme "${name}": choose ${COLOUR_THEMES.join(", ")}.` });
    return;
  }
  chooseTheme(m, name as ColourTheme, "config");
  cmds.push({ type: "save-config", keys: { theme: name } });
}
