import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { startFakeOllama, type FakeOllama, type Reply } from "../fakes/ollama-server.js";
import { runHeadless, Tui, type Sandbox, waitUntil, eachTest } from "./harness.js";
import { isAlive, pidsWith } from "../tools/ctx.js";

const MODEL = { name: "qwen3:8b", contextLength: 40960 };
const OLD_LINE = "export const greeting = 'hello';";
const NEW_LINE = "export const greeting = 'goodbye';";

/** The model creates greet.ts, then edits it, then answers. */
const createEditFlow: Reply[] = [
  { steps: [{ toolCalls: [{ name: "create_file", arguments: { path: "src/greet.ts", content: `${OLD_LINE}\n` } }] }] },
  {
    steps: [
      {
        toolCalls: [
          { name: "edit_file", arguments: { path: "src/greet.ts", old_string: OLD_LINE, new_string: NEW_LINE } },
        ],
      },
    ],
  },
  { steps: [{ text: "Greeting changed to goodbye." }] },
];

/** SGR sequences that set red / green foreground (basic, or the same colours from the 256 palette). */
const RED = /\x1b\[(?:[0-9;]*;)?(?:31|38;5;(?:1|9))m/;
const GREEN = /\x1b\[(?:[0-9;]*;)?(?:32|38;5;(?:2|10))m/;

const plain = (s: string) => s.replace(/\x1b\[[0-9;]*m/g, "");

/** The ANSI screen line whose plain text contains `text`, with its SGR codes. */
function ansiLine(screen: string, text: string): string {
  const line = screen.split("\n").find((l) => plain(l).includes(text));
  if (line === undefined) throw new Error(`no line with ${text} on the screen:\n${screen}`);
  return line;
}

describe("tools end to end", () => {
  let fake: FakeOllama | undefined;
  let sb: Sandbox;
  let tui: Tui | undefined;
  eachTest(
    (s) => (sb = s),
    () => [tui, fake],
  );

  it("asks before create_file and edit_file, shows the diff in red and green, and writes the file", async () => {
    fake = await startFakeOllama({ models: [MODEL], replies: createEditFlow });
    tui = new Tui(sb, ["--host", fake.url, "--model", MODEL.name], { width: 100, height: 40 });
    await tui.waitFor("Ask anything");
    tui.type("make a greeting module");
    tui.press("Enter");

    let screen = await tui.waitFor("Allow create_file?");
    expect(screen).toContain(OLD_LINE);
    expect(screen).toContain("y/Enter allow once");
    tui.press("y");

    screen = await tui.waitFor("Allow edit_file?");
    expect(screen).toContain(NEW_LINE);
    // The dialog's diff: the removed line red, the added line green.
    let ansi = tui.screenAnsi();
    expect(ansiLine(ansi, `- ${OLD_LINE}`)).toMatch(RED);
    expect(ansiLine(ansi, `+ ${NEW_LINE}`)).toMatch(GREEN);
    tui.press("y");

    screen = await tui.waitFor("Greeting changed to goodbye.");
    expect(fs.readFileSync(path.join(sb.project, "src", "greet.ts"), "utf8")).toBe(`${NEW_LINE}\n`);
    expect(screen).toContain("✓ create src/greet.ts — created (1 line)");
    expect(screen).toContain("✓ edit src/greet.ts — +1 -1");
    expect(screen).not.toContain("✗");

    // The edit's diff stays in the transcript: the old line red, the new line green.
    ansi = tui.screenAnsi();
    expect(ansiLine(ansi, `- ${OLD_LINE}`)).toMatch(RED);
    expect(ansiLine(ansi, `+ ${NEW_LINE}`)).toMatch(GREEN);

    // The tool results went back to the model as tool messages.
    const last = fake.chats[2]!.messages;
    const toolMessages = last.filter((m) => m.role === "tool");
    expect(toolMessages.map((m) => m.tool_name)).toEqual(["create_file", "edit_file"]);
    const callIds = last.flatMap((m) => m.tool_calls ?? []).map((c) => c.id);
    expect(toolMessages.map((m) => m.tool_call_id)).toEqual(callIds);
    expect(toolMessages[0]!.content).toBe("Created src/greet.ts (1 line).");
  });

  it("with `n`, nothing is created and the model is told the user denied it", async () => {
    fake = await startFakeOllama({ models: [MODEL], replies: createEditFlow });
    tui = new Tui(sb, ["--host", fake.url, "--model", MODEL.name]);
    await tui.waitFor("Ask anything");
    tui.type("make a greeting module");
    tui.press("Enter");
    await tui.waitFor("Allow create_file?");
    tui.press("n");
    await fake.waitForChats(2);
    expect(fs.existsSync(path.join(sb.project, "src", "greet.ts"))).toBe(false);
    const denial = fake.chats[1]!.messages.at(-1)!;
    expect(denial.role).toBe("tool");
    expect(denial.tool_name).toBe("create_file");
    expect(denial.content.startsWith("Denied by the user")).toBe(true);
    await tui.waitFor("✗ create src/greet.ts");
    await tui.waitFor(/^idle · /m);
  });

  it("`a` allows the tool for the rest of the session: the next call of it does not ask", async () => {
    fake = await startFakeOllama({
      models: [MODEL],
      replies: [
        { steps: [{ toolCalls: [{ name: "create_file", arguments: { path: "a.txt", content: "a\n" } }] }] },
        { steps: [{ toolCalls: [{ name: "create_file", arguments: { path: "b.txt", content: "b\n" } }] }] },
        { steps: [{ text: "Both files exist." }] },
      ],
    });
    tui = new Tui(sb, ["--host", fake.url, "--model", MODEL.name]);
    await tui.waitFor("Ask anything");
    tui.type("make two files");
    tui.press("Enter");
    await tui.waitFor("Allow create_file?");
    tui.press("a");
    const screen = await tui.waitFor("Both files exist.");
    expect(screen).toContain("create_file is allowed for the rest of this session.");
    expect(screen).toContain("✓ create b.txt");
    expect(fs.readFileSync(path.join(sb.project, "b.txt"), "utf8")).toBe("b\n");
  });

  it("[needs bubblewrap] Esc kills a running shell command and its children; the UI is idle and answers the next prompt", async () => {
    // The shell and its sleep are found by this mark: the command runs in a pid namespace of its
    // own, where `$$` is not the host's pid.
    const mark = `30.${process.pid}7`;
    const command = `sleep ${mark}; echo done`;
    fake = await startFakeOllama({
      models: [MODEL],
      replies: [
        { steps: [{ toolCalls: [{ name: "run_shell_command", arguments: { command } }] }] },
        { steps: [{ text: "After the interruption." }] },
      ],
    });
    tui = new Tui(sb, ["--host", fake.url, "--model", MODEL.name, "--permission-mode", "yolo"]);
    await tui.waitFor("Ask anything");
    tui.type("wait a while");
    tui.press("Enter");
    // The shell (bash -c …) and the sleep it started.
    await waitUntil(() => pidsWith(`sleep ${mark}`).length >= 2, 10_000, "the shell and its sleep");
    const pids = pidsWith(`sleep ${mark}`);
    // The running command shows with its elapsed time.
    await tui.waitFor(new RegExp(`⚙ run sleep ${mark.replace(".", "\\.")}; echo done \\d+s`));
    expect(pids.every(isAlive)).toBe(true);

    tui.press("Escape");
    await waitUntil(() => !pids.some(isAlive), 3000, "the shell and sleep to die");

    await tui.waitFor(/^idle · /m);
    await tui.waitFor(`✗ run ${command} — interrupted`);
    expect(fake.chats.length).toBe(1);
    tui.type("are you there?");
    tui.press("Enter");
    await tui.waitFor("After the interruption.");
    await tui.waitFor(/^idle · /m);
  });

  it("headless -p --yolo runs the create/edit flow and exits 0 with the file written", async () => {
    fake = await startFakeOllama({ models: [MODEL], replies: createEditFlow });
    const r = await runHeadless(sb, [
      "-p",
      "make a greeting module",
      "--yolo",
      "--host",
      fake.url,
      "--model",
      MODEL.name,
    ]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("Greeting changed to goodbye.\n");
    expect(fs.readFileSync(path.join(sb.project, "src", "greet.ts"), "utf8")).toBe(`${NEW_LINE}\n`);
  });

  it("headless without --yolo denies file changes, telling the model why", async () => {
    fake = await startFakeOllama({
      models: [MODEL],
      replies: [createEditFlow[0]!, { steps: [{ text: "I could not." }] }],
    });
    const r = await runHeadless(sb, ["-p", "make a greeting module", "--host", fake.url, "--model", MODEL.name]);
    // The run did not do what was asked: exit 1, and stderr says what was denied.
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("denied: create_file");
    expect(fs.existsSync(path.join(sb.project, "src", "greet.ts"))).toBe(false);
    const denial = fake.chats[1]!.messages.at(-1)!;
    expect(denial).toMatchObject({ role: "tool", tool_name: "create_file" });
    expect(denial.content).toBe(
      "Denied by the user: create_file needs the user's say, and this headless run cannot ask for permission (run with --yolo or --permission-mode auto-edit to allow it).",
    );
  });
});
