// The runtime's half of the steering features: Cmds that read files, run the user's `!command`,
// keep the input history and draw the user's attention. The I/O itself is the services'.
import type { Cmd, Msg } from "../msg.js";
import type { Services } from "./services.js";

type SteerCmd = Extract<
  Cmd,
  { type: "match-files" | "read-mentions" | "shell" | "shell-cancel" | "history-append" | "notify" }
>;

/** OSC 9 is the desktop notification of iTerm2, WezTerm, kitty and Windows Terminal; BEL the fallback. */
export function attentionSequence(mode: "bell" | "osc9", text: string): string {
  // An OSC string ends at BEL or ESC: neither may appear inside it.
  return mode === "osc9" ? `\x1b]9;${text.replace(/[\x00-\x1f\x7f]/g, " ")}\x07` : "\x07";
}

export function createSteerRunner(
  services: () => Services,
  later: (msg: Msg) => void,
  write: (s: string) => void,
): (cmd: SteerCmd) => void {
  let shell: AbortController | undefined;
  return (cmd) => {
    switch (cmd.type) {
      case "match-files":
        services().matchFiles(cmd.query, cmd.refresh, (matches) => later({ type: "files-matched", matches }));
        return;
      case "read-mentions":
        services()
          .readMentions(cmd.text, cmd.mentions)
          .then(
            (r) => later({ type: "mentions-read", text: cmd.text, ...r }),
            (err: Error) =>
              later({
                type: "mentions-read",
                text: cmd.text,
                content: cmd.text,
                attached: [],
                problems: [err.message],
              }),
          );
        return;
      case "shell": {
        shell?.abort();
        const ctl = new AbortController();
        shell = ctl;
        services()
          .runShell(cmd.command, ctl.signal)
          .then(
            (r) => later({ type: "shell-done", command: cmd.command, ...r }),
            (err: Error) => later({ type: "shell-done", command: cmd.command, output: err.message, exitCode: null }),
          )
          .finally(() => {
            if (shell === ctl) shell = undefined;
          });
        return;
      }
      case "shell-cancel":
        shell?.abort();
        return;
      case "history-append":
        services().appendHistory(cmd.text);
        return;
      case "notify":
        write(attentionSequence(cmd.mode, cmd.text));
        return;
    }
  };
}
