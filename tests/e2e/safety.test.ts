// Terminal safety, secrets and the shell allowlist, end to end: escape sequences from the model
// or from files never reach the terminal; secret env values never reach the model, the session
// file or the logs; in ask mode only plain read-only commands run unasked.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { startFakeOllama, type FakeOllama } from "../fakes/ollama-server.js";
import { runHeadless, sessionFiles, Tui, type Sandbox, eachTest, filesUnder } from "./harness.js";

const MODEL = "qwen3:8b";

const CLEAR = "\x1b[2J\x1b[H";
const CLIPBOARD = "\x1b]52;c;SGVsbG8=\x07";
const TITLE = "\x1b]0;pwned\x07";
const LINK = "\x1b]8;;javascript:alert(1)\x07click me\x1b]8;;\x07";

describe("terminal safety in the TUI", () => {
  let sb: Sandbox;
  let tui: Tui | undefined;
  let fake: FakeOllama | undefined;
  eachTest(
    (s) => (sb = s),
    () => [tui, fake],
  );

  it("escape sequences from the model and from a file show as visible text and never drive the terminal", async () => {
    fs.writeFileSync(
      path.join(sb.project, "evil.txt"),
      `from the file ${TITLE.replace("pwned", "pwned-by-file")}\n${CLEAR}\nharmless\n${CLIPBOARD}\n`,
    );
    fake = await startFakeOllama({
      models: [{ name: MODEL }],
      replies: [
        { steps: [{ text: `Clear: ${CLEAR} Clip: ${CLIPBOARD} Title: ${TITLE} Link: ${LINK} end of answer` }] },
        {
          steps: [
            {
              toolCalls: [
                { name: "read_file", arguments: { path: "evil.txt" } },
                { name: "edit_file", arguments: { path: "evil.txt", old_string: "harmless", new_string: "changed" } },
              ],
            },
          ],
        },
        { steps: [{ text: "Edited the file." }] },
      ],
    });
    tui = new Tui(sb, ["--host", fake.url, "--model", MODEL, "--yolo"], { width: 160, height: 45 });
    // tmux keeps OSC 52 clipboard writes as paste buffers once this is on: a leak would show up there.
    tui.tmux("set-option", "-g", "set-clipboard", "on");
    await tui.waitFor("Ask anything");
    // The app names its own window; only that title may stand at the end.
    const titleBefore = tui.tmux("display-message", "-p", "-t", "main", "#{pane_title}").trim();

    tui.type("say something odd");
    tui.press("Enter");
    let screen = await tui.waitFor("end of answer");
    expect(screen).toContain("Clear: ␛[2J␛[H Clip:");
    expect(screen).toContain("Clip: ␛]52;c;SGVsbG8=␇");
    expect(screen).toContain("Title: ␛]0;pwned␇");
    expect(screen).toContain("␛]8;;javascript:alert(1)␇click me␛]8;;␇");
    // Nothing was cleared: the welcome and the prompt are still above the answer.
    expect(screen).toContain("a coding agent for local models");
    expect(screen).toContain("› say something odd");

    tui.type("edit the file");
    tui.press("Enter");
    screen = await tui.waitFor("Edited the file.");
    // The diff shows the file's lines around the change: its escapes are visible text too.
    expect(screen).toContain("from the file ␛]0;pwned-by-file␇");
    expect(screen).toContain("␛]52;c;SGVsbG8=␇");
    expect(screen).toContain("a coding agent for local models");
    expect(screen).toContain("end of answer");

    const title = tui.tmux("display-message", "-p", "-t", "main", "#{pane_title}").trim();
    expect(title).not.toContain("pwned");
    expect(title).toBe(titleBefore);
    expect(tui.tmux("list-buffers")).toBe("");
    // The model got the file as it is: sanitizing is for the screen only.
    const toolResult = fake.chats[2]!.messages.find((m) => m.role === "tool" && m.content.includes("from the file"));
    expect(toolResult?.content).toContain(TITLE.replace("pwned", "pwned-by-file"));
  });
});

describe("secrets and the shell allowlist, headless", () => {
  let sb: Sandbox;
  let fake: FakeOllama | undefined;
  eachTest(
    (s) => (sb = s),
    () => [fake],
  );

  it("a secret env value in tool output reaches the model masked, and neither the session nor the logs hold it", async () => {
    const SECRET = "sk-supersecret-123";
    sb.env.MY_API_KEY = SECRET;
    fs.writeFileSync(path.join(sb.project, "notes.txt"), `pasted: ${SECRET}\n`);
    fake = await startFakeOllama({
      models: [{ name: MODEL }],
      replies: [
        // The variable itself is not in the command's environment (scrubbed); a copy in a file is masked.
        {
          steps: [
            {
              toolCalls: [{ name: "run_shell_command", arguments: { command: 'echo "[$MY_API_KEY]"; cat notes.txt' } }],
            },
          ],
        },
        // A model repeating a secret it somehow knows: still not written down.
        { steps: [{ text: `Your key is ${SECRET}.` }] },
      ],
    });
    const r = await runHeadless(sb, ["-p", "what is my key?", "--host", fake.url, "--model", MODEL, "--yolo"]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    const toolMessage = fake.chats[1]!.messages.find((m) => m.role === "tool");
    expect(toolMessage?.content).toBe("exit code 0\n[]\npasted: ****\n");
    expect(JSON.stringify(fake.chats[1]!.messages)).not.toContain(SECRET);

    const files = [...sessionFiles(sb), ...filesUnder(path.join(sb.env.XDG_DATA_HOME!, "agent0", "logs"))];
    expect(sessionFiles(sb)).toHaveLength(1);
    expect(files.length).toBeGreaterThan(1);
    for (const file of files)
      expect({ file, leaked: fs.readFileSync(file, "utf8").includes(SECRET) }).toEqual({ file, leaked: false });
    expect(fs.readFileSync(sessionFiles(sb)[0]!, "utf8")).toContain("Your key is ****.");
  });

  it("in ask mode, plain read-only commands run unasked; chaining, redirection and substitution do not run", async () => {
    fs.writeFileSync(path.join(sb.project, "listed.txt"), "x\n");
    const attempts = [
      "ls",
      "ls; touch pwned1",
      "ls && touch pwned2",
      "echo hi > pwned3",
      "echo $(touch pwned4)",
      "cat `touch pwned5`",
      "ls\ntouch pwned6",
    ];
    fake = await startFakeOllama({
      models: [{ name: MODEL }],
      replies: [
        {
          steps: [
            {
              toolCalls: attempts.map((command, i) => ({
                id: `call_${i}`,
                name: "run_shell_command",
                arguments: { command },
              })),
            },
          ],
        },
        { steps: [{ text: "Done trying." }] },
      ],
    });
    const r = await runHeadless(sb, ["-p", "try things", "--host", fake.url, "--model", MODEL]);
    // What could not be asked for was denied: said on stderr, and the run did not do what was asked.
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("denied: run_shell_command: ls; touch pwned1");
    expect(fs.readdirSync(sb.project).filter((f) => f.startsWith("pwned"))).toEqual([]);
    const results = new Map(
      fake.chats[1]!.messages.filter((m) => m.role === "tool").map((m) => [m.tool_call_id, m.content]),
    );
    expect(results.get("call_0")).toContain("listed.txt");
    for (let i = 1; i < attempts.length; i++) expect(results.get(`call_${i}`)).toContain("cannot ask for permission");
  });
});
