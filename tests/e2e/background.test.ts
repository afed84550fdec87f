import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { startFakeOllama, type FakeOllama } from "../fakes/ollama-server.js";
import { Tui, type Sandbox, eachTest, waitUntil } from "./harness.js";

const MODEL = { name: "qwen3:8b", contextLength: 40960 };

/**
 * Whether a process whose command line is exactly `cmdline` runs (zombies do not count). By its
 * command line: a command's own $$ is its pid inside its pid namespace, not ours.
 */
function running(cmdline: string): boolean {
  for (const name of fs.readdirSync("/proc").filter((n) => /^\d+$/.test(n))) {
    try {
      if (fs.readFileSync(`/proc/${name}/cmdline`, "utf8").replace(/\0/g, " ").trim() !== cmdline) continue;
      const stat = fs.readFileSync(`/proc/${name}/stat`, "utf8");
      if (stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z") return true;
    } catch {
      // gone meanwhile
    }
  }
  return false;
}

/** The tool result the model was sent last, in a chat request. */
function lastToolResult(messages: { role: string; content: string }[]): string {
  return [...messages].reverse().find((m) => m.role === "tool")?.content ?? "";
}

// Claude Code's Bash tool takes run_in_background and returns an id; BashOutput reads what is new
// and KillShell stops it; Ctrl+B moves the running command there; the jobs end with the app.
describe("background shell commands end to end", () => {
  let fake: FakeOllama | undefined;
  let sb: Sandbox;
  let tui: Tui | undefined;
  eachTest(
    (s) => (sb = s),
    () => [tui, fake],
  );

  it("returns at once with an id, its output is read later, /jobs lists it, and it is gone after exit", async () => {
    // A number no other test sleeps for: the process is found by its command line.
    const sleeper = "sleep 7301";
    const script = `echo first-line; sleep 0.3; echo later-line; exec ${sleeper}`;
    fake = await startFakeOllama({
      models: [MODEL],
      replies: [
        {
          steps: [
            { toolCalls: [{ name: "run_shell_command", arguments: { command: script, run_in_background: true } }] },
          ],
        },
        { steps: [{ text: "The server runs." }] },
        { steps: [{ toolCalls: [{ name: "shell_output", arguments: { id: "bash_1" } }] }] },
        { steps: [{ text: "It printed two lines." }] },
      ],
    });
    tui = await Tui.open(sb, ["--host", fake.url, "--model", MODEL.name, "--permission-mode", "yolo"], {
      width: 120,
      height: 40,
    });
    tui.send("start the server");
    await tui.waitFor("The server runs.");
    // Returned at once: the command still runs (sleep 1000) while the run has ended.
    expect(lastToolResult(fake.chats[1]!.messages)).toContain("Started in the background as bash_1");
    await tui.waitFor("1 background command");
    await waitUntil(() => running(sleeper), 5000, "the background command to run");

    tui.send("/jobs");
    let screen = await tui.waitFor("Background commands:");
    expect(screen).toMatch(/bash_1 +running +echo first-line/);

    // Later, the model reads what the command printed since it started (`exec sleep` runs only
    // after later-line was written, and the app has read it by the time the next turn asks).
    tui.send("what did it print?");
    await tui.waitFor("It printed two lines.");
    const read = lastToolResult(fake.chats[3]!.messages);
    expect(read).toContain("bash_1: running");
    expect(read).toContain("first-line\nlater-line");

    tui.send("/quit");
    screen = await tui.waitFor(/\[exit \d+\]/);
    await waitUntil(() => !running(sleeper), 5000, "the background command to be gone after exit");
  });

  it("Ctrl+B sends the running command to the background; kill_shell stops it", async () => {
    const sleeper = "sleep 7302";
    const script = `echo before-ctrl-b; exec ${sleeper}`;
    fake = await startFakeOllama({
      models: [MODEL],
      replies: [
        { steps: [{ toolCalls: [{ name: "run_shell_command", arguments: { command: script } }] }] },
        { steps: [{ toolCalls: [{ name: "kill_shell", arguments: { id: "bash_1" } }] }] },
        { steps: [{ text: "Stopped it." }] },
      ],
    });
    tui = await Tui.open(sb, ["--host", fake.url, "--model", MODEL.name, "--permission-mode", "yolo"], {
      width: 120,
      height: 40,
    });
    tui.send("watch the files");
    await waitUntil(() => running(sleeper), 5000, "the command to run");
    await tui.waitFor("run echo");
    tui.press("C-b");
    await tui.waitFor("Stopped it.");
    const moved = lastToolResult(fake.chats[1]!.messages);
    expect(moved).toContain("sent the command to the background as bash_1");
    expect(moved).toContain("before-ctrl-b");
    expect(lastToolResult(fake.chats[2]!.messages)).toContain("bash_1: killed");
    await waitUntil(() => !running(sleeper), 5000, "kill_shell to stop the command");
    await tui.waitFor("Background command bash_1 ended (killed)");
  });
});
