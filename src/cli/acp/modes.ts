// The permission modes as an editor shows them (session modes and the "mode" config option).
import type { PermissionMode } from "../../protocol/run-config.js";

export const MODE_NAMES: Record<PermissionMode, { name: string; description: string }> = {
  ask: { name: "Ask", description: "Ask before every change and command" },
  "auto-edit": { name: "Auto-edit", description: "Edit files without asking; ask before commands" },
  plan: { name: "Plan", description: "Read-only: explore and present a plan, change nothing" },
  yolo: { name: "Yolo", description: "Never ask (the server was started with --yolo)" },
};
