import type { PermissionMode } from "../../protocol/run-config.js";
import { chalk, theme, type Style } from "../../render/theme.js";
import { displayWidth, truncateLine } from "../../render/wrap.js";
import type { Model } from "../model.js";
import { isShellLine } from "../layout/input.js";

const MODE_STYLE: Record<PermissionMode, Style> = {
  ask: theme.dim,
  "auto-edit": theme.warn,
  plan: chalk.ansi256(117),
  yolo: theme.err,
};

/** The permission mode as a coloured word (status line). */
export function modeWord(mode: PermissionMode): string {
  return MODE_STYLE[mode](mode);
}

/** The rule above the input names what Enter will do: the mode, or shell mode for a `!` line. */
export function modeRule(model: Model, width: number): string {
  const label = isShellLine(model.input.text)
    ? theme.warn("! shell mode — Enter runs the command")
    : `${modeWord(model.config.permissionMode)}${model.config.permissionMode === "plan" ? MODE_STYLE.plan(" mode: read-only") : ""} ${theme.dim("· shift+tab to cycle")}`;
  const head = truncateLine(`${theme.dim("── ")}${label}${theme.dim(" ")}`, width);
  return head + theme.dim("─".repeat(Math.max(0, width - displayWidth(head))));
}
