// What the terminal can do that it is never asked about: read from its environment, after the
// first frame (main), and handed to the UI with boot-ready. What it can be asked (synchronized
// output, the kitty keyboard protocol, its background) it answers itself (restore.ts, keys.ts).
import os from "node:os";
import supportsHyperlinks from "supports-hyperlinks";
import type { TerminalCaps } from "../model.js";
import type { ColourTheme } from "../../render/colour-themes.js";

type Env = Record<string, string | undefined>;

/** `3.6.6` >= `3.6.6`, by numbers. */
function atLeast(version: string | undefined, min: readonly number[]): boolean {
  const parts = (version ?? "").split(".").map((p) => Number.parseInt(p, 10));
  for (let i = 0; i < min.length; i++) {
    const v = parts[i] ?? 0;
    if (Number.isNaN(v)) return false;
    if (v !== min[i]) return v > min[i]!;
  }
  return true;
}

/**
 * OSC 9;4 progress: ConEmu's sequence, shown by Windows Terminal, Ghostty 1.2+, iTerm2 3.6.6+,
 * WezTerm, Konsole, mintty and VS Code (https://www.terminfo.dev/extensions/osc9-progress-bar).
 * Elsewhere it is not sent: iTerm2 before 3.6.6 reads any OSC 9 as a desktop notification.
 */
export function showsProgress(env: Env): boolean {
  if (env.WT_SESSION || env.ConEmuPID || env.KONSOLE_VERSION) return true;
  switch (env.TERM_PROGRAM) {
    case "ghostty":
    case "WezTerm":
    case "mintty":
    case "vscode":
      return true;
    case "iTerm.app":
      return atLeast(env.TERM_PROGRAM_VERSION, [3, 6, 6]);
    default:
      return false;
  }
}

/** The terminal's features from its environment; `progress` from the config when it says. */
export function terminalSupport(env: Env, progress?: boolean): Omit<TerminalCaps, "keyboard"> {
  return {
    // supports-hyperlinks knows the terminals that show OSC 8 (and FORCE_HYPERLINK, --no-hyperlinks).
    hyperlinks: supportsHyperlinks.stdout,
    progress: progress ?? showsProgress(env),
    host: os.hostname(),
  };
}

/**
 * COLORFGBG (rxvt, Konsole and others set it, "fg;bg" with palette numbers): a light background is
 * white (7) or bright white (15). Only a hint, for a terminal that does not answer OSC 11.
 */
export function themeFromEnvironment(env: Env): ColourTheme | undefined {
  const bg = env.COLORFGBG?.split(";").pop();
  if (!bg || !/^\d+$/.test(bg)) return undefined;
  return bg === "7" || bg === "15" ? "light" : "dark";
}
