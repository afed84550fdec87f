import { PERMISSION_MODES, THINK_LEVELS, thinkLevel, type PermissionMode } from "../../protocol/run-config.js";
import { expandSkill } from "../../context/skill-expand.js";
import { formatHelp, formatKeys, slashCommands, unknownCommandHint } from "../slash-commands.js";
import type { Model } from "../model.js";
import type { Cmd, Msg } from "../msg.js";
import { beginRun, startRun } from "./run.js";
import { plain } from "./plain.js";
import { addEntry } from "./transcript.js";
import { chooseModel } from "./dialog.js";
import { quit } from "./quit.js";
import { setMode } from "./modes.js";
import { INIT_PROMPT } from "../../context/init-prompt.js";
import { contextReport } from "../layout/context.js";
import { runMcpCommand, runMcpPrompt } from "./mcp.js";
import { formatHooks, formatRules, removeRule } from "./settings-commands.js";
import { runJobsCommand } from "./jobs.js";
import { runPluginsCommand } from "./plugins.js";
import { openRewind } from "./rewind.js";
import { costReport } from "./session-tools.js";
import { themeCommand } from "./theme.js";
import { parseReviewTarget, reviewLabel, reviewPrompt } from "../../context/review.js";

const MODES = PERMISSION_MODES;

/** A line starting with "/": a built-in command or a skill. Never sent to the model as typed. */
export function runSlash(model: Model, line: string, cmds: Cmd[]): void {
  const [head = "", ...rest] = line.slice(1).split(/\s+/);
  const args = line.slice(1 + head.length).trim();
  const name = head.toLowerCase();
  const notice = (text: string, level: "info" | "warn" = "info") => addEntry(model, { kind: "notice", level, text });
  const busy = () => {
    if (model.run) notice("Wait for the current answer to end (or press Esc) first.", "warn");
    return !!model.run;
  };
  // A built-in that yields runs only where no skill of that name was loaded.
  const yielded = slashCommands.some((c) => c.name === name && c.yields) && model.skills.some((s) => s.name === head);
  switch (yielded ? "" : name) {
    case "help":
    case "?":
      return notice(`${formatHelp(slashCommands, model.skills)}\n\n${formatKeys()}`);
    case "quit":
    case "exit":
      return quit(model, cmds);
    case "theme":
      return themeCommand(model, args, cmds);
    case "model": {
      if (!rest[0]) {
        cmds.push({ type: "list-models" });
        return notice("Loading the server's models…");
      }
      if (busy()) return;
      chooseModel(model, rest[0], cmds);
      if (rest[1] === "save") cmds.push({ type: "save-config", keys: { model: rest[0] } });
      else notice(`To make it the default: /model ${rest[0]} save`);
      return;
    }
    case "new":
      if (busy()) return;
      cmds.push({ type: "new-session" });
      // MCP servers whose definition did not change keep running; changed ones restart.
      cmds.push({ type: "mcp-reload" });
      return;
    case "clear":
      if (busy()) return;
      model.entries = [];
      model.conversation = [];
      // The cleared turns were still spent: the session's total stays.
      model.usage.promptTokens = 0;
      model.usage.completionTokens = 0;
      cmds.push({ type: "session-reset", conversation: [] });
      return notice("Conversation cleared.");
    case "sessions":
      cmds.push({ type: "list-sessions" });
      return;
    case "resume":
      if (busy()) return;
      if (!rest[0]) {
        cmds.push({ type: "list-sessions" });
        return;
      }
      cmds.push({ type: "open-session", idOrPrefix: rest[0] });
      return;
    case "agents":
      cmds.push({ type: "show", what: "agents" });
      return;
    case "doctor":
      cmds.push({
        type: "doctor",
        terminal: {
          syncOutput: model.syncOutput,
          keyboard: model.terminal.keyboard,
          theme: `${model.theme.name} (${model.theme.source})`,
        },
      });
      return notice("Checking this machine…");
    case "context":
      return notice(contextReport(model));
    case "memory":
      cmds.push({ type: "show", what: "memory" });
      return;
    case "mcp":
      return runMcpCommand(model, args, cmds);
    case "plugins":
      return runPluginsCommand(model, args, cmds);
    case "skills":
      return notice(
        model.skills.length
          ? model.skills
              .map(
                (s) =>
                  `/${s.name}${s.params.map((p) => ` <${p}>`).join("")} — ${s.description}${s.plugin ? ` (plugin ${s.plugin})` : ""}`,
              )
              .join("\n")
          : "No skills loaded.",
      );
    case "compact":
      if (busy()) return;
      cmds.push({
        type: "worker",
        command: {
          type: "compact",
          runId: beginRun(model, "thinking"),
          conversation: plain(model.conversation),
          config: plain(model.config),
        },
      });
      return;
    case "hooks":
      return notice(formatHooks(model));
    case "permissions": {
      const mode = rest[0] as PermissionMode | undefined;
      if (!mode)
        return notice(
          `Permission mode: ${model.config.permissionMode} (one of ${MODES.join(", ")}). ${sandboxText(model)}\n${formatRules(model)}`,
        );
      if (mode === ("remove" as PermissionMode)) return removeRule(model, rest[1], cmds);
      if (!MODES.includes(mode)) return notice(`Unknown mode '${mode}'. Use one of: ${MODES.join(", ")}.`, "warn");
      setMode(model, mode, cmds);
      if (rest[1] === "save") cmds.push({ type: "save-config", keys: { permissionMode: mode } });
      return notice(
        `Permission mode: ${mode}.${rest[1] === "save" ? "" : ` To make it the default: /permissions ${mode} save`}`,
      );
    }
    case "thinking": {
      if (!rest[0]) {
        model.thinkingOpen = !model.thinkingOpen;
        return notice(model.thinkingOpen ? "Thinking is shown in full." : "Thinking is folded to one line.");
      }
      const level = thinkLevel(rest[0]);
      if (!level) return notice(`Unknown level '${rest[0]}'. Use one of: ${THINK_LEVELS.join(", ")}.`, "warn");
      model.config.think = level;
      if (rest[1] === "save") cmds.push({ type: "save-config", keys: { think: level } });
      return notice(
        `Thinking: ${level}, from the next request on.${rest[1] === "save" ? "" : ` To make it the default: /thinking ${level} save`}`,
      );
    }
    case "init":
      if (busy()) return;
      startRun(model, { content: INIT_PROMPT, typed: "/init", note: "survey the project and write AGENTS.md" }, cmds);
      return;
    case "rewind":
      return openRewind(model);
    case "export":
      cmds.push({
        type: "export",
        ...(args ? { file: args } : {}),
        conversation: plain(model.conversation),
        model: model.config.model,
      });
      return;
    case "cost":
      return notice(costReport(model));
    case "diff":
      cmds.push({ type: "session-diff" });
      return;
    case "review": {
      const target = parseReviewTarget(args);
      if ("error" in target) return notice(target.error, "warn");
      if (busy()) return;
      cmds.push({ type: "review-diff", target, typed: line });
      return;
    }
    case "add-dir":
      if (!args) {
        const dirs = model.config.addDirs ?? [];
        return notice(dirs.length ? `Added folders:\n${dirs.map((d) => `  ${d}`).join("\n")}` : "No added folders.");
      }
      if (busy()) return;
      cmds.push({ type: "add-dir", path: args, cwd: model.config.cwd });
      return;
    case "jobs":
      return runJobsCommand(model, rest, cmds);
    case "undo":
      if (busy()) return;
      cmds.push({
        type: "undo",
        force: rest[0] === "force",
        sessionId: model.sessionId,
        conversation: plain(model.conversation),
        tokensUsed: model.usage.totalTokens,
      });
      return;
    default: {
      if (runMcpPrompt(model, head, args, line, cmds)) return;
      const skill = model.skills.find((s) => s.name === head);
      if (!skill) {
        return notice(
          unknownCommandHint(
            head,
            model.commands.map((c) => c.name),
          ),
          "warn",
        );
      }
      const expanded = expandSkill(skill, args);
      if (!expanded.ok) return notice(expanded.error, "warn");
      if (busy()) return;
      startRun(model, { content: expanded.prompt, typed: line, toolFilter: skill.allowedTools }, cmds);
    }
  }
}

/** What /permissions says about the shell sandbox. */
function sandboxText(model: Model): string {
  return model.config.sandbox === "workspace-write"
    ? "Sandbox: workspace-write — shell commands run under bubblewrap: only the project folder and a private /tmp are writable, no network, secrets removed from the environment."
    : "Sandbox: off — shell commands run as you, with your files and network (start with --sandbox to confine them).";
}

/** /review's change arrived: the run starts with it, or the user is told why there is nothing to review. */
export function startReview(model: Model, msg: Extract<Msg, { type: "review-diff" }>, cmds: Cmd[]): void {
  if (!msg.diff.ok) {
    addEntry(model, { kind: "notice", level: "warn", text: msg.diff.error });
    return;
  }
  if (model.run)
    return addEntry(model, { kind: "notice", level: "warn", text: "A run started meanwhile; /review again after it." });
  const content = reviewPrompt(msg.target, msg.diff.diff);
  startRun(model, { content, typed: msg.typed, note: `review ${reviewLabel(msg.target)}` }, cmds);
}
