// Issue 39, part 2, in the TUI: without bubblewrap (a PATH without it: harness.ts hideFromPath; that
// it is really hidden is checked in fallback.test.ts), Esc, quitting and a closed terminal end a
// command's children through the process tag (tools/shell/process-tag.ts) and process groups.
import { describe, it } from "vitest";
import { startFakeOllama, type FakeOllama } from "../fakes/ollama-server.js";
import { MODEL, alive, escapingChildren, pidsOf, sleepsOf, toolCalls } from "./attack-helpers.js";
import { Tui, eachTest, hideFromPath, waitUntil, type Sandbox } from "./harness.js";

describe("without bubblewrap, in the TUI: the process tag and process groups", () => {
  let sb: Sandbox;
  let fake: FakeOllama | undefined;
  let tui: Tui | undefined;
  eachTest(
    (s) => {
      sb = s;
      hideFromPath(sb, ["bwrap"]);
    },
    () => [tui, fake],
  );

  const shellCall = (command: string) => toolCalls({ name: "run_shell_command", arguments: { command } });

  it("TUI: Esc ends a running command and its children", async () => {
    const mark = `31.${process.pid}8`;
    const command = `sleep ${mark}0 & nohup sleep ${mark}1 >/dev/null 2>&1 & sleep ${mark}2; echo done`;
    fake = await startFakeOllama({
      models: [{ name: MODEL }],
      replies: [shellCall(command), { steps: [{ text: "After the interruption." }] }],
    });
    tui = await Tui.open(sb, ["--host", fake.url, "--model", MODEL, "--yolo"]);
    tui.send("wait a while");
    const sleeps = () => [0, 1, 2].flatMap((i) => sleepsOf(`${mark}${i}`));
    await waitUntil(() => sleeps().length === 3, 10_000, "the command's three sleeps");
    const pids = sleeps();
    try {
      tui.press("Escape");
      await waitUntil(() => !pids.some(alive), 5000, "Esc to end the command and its children");
      await tui.waitFor(/^idle · /m);
    } finally {
      for (const pid of pids) if (alive(pid)) process.kill(pid, "SIGKILL");
    }
  });

  it("TUI: quitting, and closing the terminal (SIGHUP), leave nothing running", async () => {
    for (const [how, tag] of [
      ["quit", "72"],
      ["SIGHUP", "73"],
    ] as const) {
      const { command, marks } = escapingChildren(tag);
      fake = await startFakeOllama({
        models: [{ name: MODEL }],
        // The command still runs (its last line waits): its group has not been ended yet.
        replies: [shellCall(`${command}\nsleep 600`), { steps: [{ text: "servers up" }] }],
      });
      tui = await Tui.open(sb, ["--host", fake.url, "--model", MODEL, "--yolo"]);
      tui.send("start the servers");
      await waitUntil(() => pidsOf(marks).length === 3, 10_000, "the children to start");
      const pids = pidsOf(marks);
      try {
        if (how === "quit") {
          tui.press("C-c");
          await tui.waitFor(/^idle · /m);
          tui.press("C-d");
          await tui.waitFor("[exit 0]");
        } else {
          process.kill(tui.appPid()!, "SIGHUP");
        }
        await waitUntil(() => !pids.some(alive), 5000, `${how}: the command's children to end`);
      } finally {
        for (const pid of pids) if (alive(pid)) process.kill(pid, "SIGKILL");
        tui.kill();
        await fake.close();
      }
    }
  });
});
