// The terminal's own standards, in a real terminal: tmux's extended keys (modifyOtherKeys), the
// kitty keyboard protocol through term-proxy.py (a terminal in between that answers the query and
// keeps the modes the app sets, so they can be read back after exit, Ctrl+Z and a crash), and Tab
// on an @ mention typed right after start. OSC 8 links and OSC 9;4 progress are in
// terminal-links.test.ts, the themes a terminal's background picks in terminal-themes.test.ts.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { startFakeOllama, type FakeOllama } from "../fakes/ollama-server.js";
import { BIN, Tui, type Sandbox, eachTest, waitUntil } from "./harness.js";

const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), "fixtures");
const PROXY_SHELL = path.join(FIXTURES, "term-proxy-shell.mjs");
const MODEL = "qwen3:8b";
const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

interface KeyboardModes {
  kitty: number[];
  modifyOtherKeys: number;
}

describe("the terminal's standards", () => {
  let fake: FakeOllama;
  let sb: Sandbox;
  let tui: Tui | undefined;
  eachTest(
    (s) => (sb = s),
    () => [tui, fake],
  );

  const rawLog = () => path.join(sb.home, "tty.log");
  const modesFile = () => path.join(sb.home, "modes.json");
  const modes = (): KeyboardModes | null =>
    fs.existsSync(modesFile()) ? (JSON.parse(fs.readFileSync(modesFile(), "utf8")) as KeyboardModes) : null;
  const waitModes = (want: KeyboardModes, what: string) =>
    waitUntil(() => JSON.stringify(modes()) === JSON.stringify(want), 10_000, `${what}: ${JSON.stringify(want)}`);

  it("with tmux's extended keys on, Shift+Enter adds a line without sending; Enter sends both lines", async () => {
    fake = await startFakeOllama({ models: [{ name: MODEL }] });
    tui = await Tui.open(sb, ["--host", fake.url, "--model", MODEL], { serverOptions: [["extended-keys", "on"]] });
    tui.type("first line");
    tui.press("S-Enter");
    tui.type("second line");
    // Keys are handled in order: once the second line shows, the Shift+Enter was taken as a new line.
    const screen = await tui.waitFor(/first line\s*\n.*second line/);
    expect(screen).not.toMatch(/^you/m);
    expect(fake.chats).toHaveLength(0);
    tui.press("Enter");
    await fake.waitForChats(1, 10_000);
    const user = fake.chats[0]!.messages.filter((m) => m.role === "user").at(-1);
    expect(user?.content).toContain("first line\nsecond line");
  });

  it("kitty's protocol where the terminal answers; exit, Ctrl+Z and a crash each give the keyboard back as it was", async () => {
    fake = await startFakeOllama({ models: [{ name: MODEL }] });
    Object.assign(sb.env, { TERM_PROXY_KITTY: "1", TERM_PROXY_STATE: modesFile(), TERM_PROXY_LOG: rawLog() });
    sb.env.AGENT0_FAULT = "main-throw-on:CRASH-NOW";
    // bash with job control behind the proxy: Ctrl+Z stops the app and `fg` brings it back, as in a user's shell.
    tui = new Tui(sb, [], { bin: PROXY_SHELL, serverOptions: [["extended-keys", "on"]] });
    await tui.waitFor(/[#$]$/m);
    tui.send("PS1='shell$ '");
    await tui.waitFor("shell$");
    const launch = `node ${shellQuote(BIN)} --host ${fake.url} --model ${MODEL}`;
    const on: KeyboardModes = { kitty: [1], modifyOtherKeys: 1 };
    const asBefore: KeyboardModes = { kitty: [], modifyOtherKeys: 0 };

    tui.send(launch);
    await tui.waitFor("Ask anything", 20_000);
    await waitModes(on, "the app pushed kitty's flags");
    // Under the protocol Shift+Enter still adds a line.
    tui.type("alpha");
    tui.press("S-Enter");
    tui.type("beta");
    await tui.waitFor(/alpha\s*\n.*beta/);

    tui.press("C-z");
    await waitModes(asBefore, "Ctrl+Z gave the keyboard back");
    await tui.waitFor(/Stopped/);
    tui.send("fg");
    await waitModes(on, "fg took it again");
    await tui.waitFor(/alpha\s*\n.*beta/);

    tui.type("CRASH-NOW");
    await waitModes(asBefore, "the crash handler gave the keyboard back");
    await tui.waitFor("crash drill");

    tui.send(launch);
    await tui.waitFor("Ask anything", 20_000);
    await waitModes(on, "the second launch pushed again");
    tui.press("C-d");
    await waitModes(asBefore, "quitting gave the keyboard back");
    await tui.waitFor("shell$");
  });

  it("typed right after the first frame, `@src/deep/fi` and one Tab completes the one match", async () => {
    fs.mkdirSync(path.join(sb.project, "src", "deep"), { recursive: true });
    fs.writeFileSync(path.join(sb.project, "src", "deep", "file-xyz.ts"), "export {};\n");
    fs.writeFileSync(path.join(sb.project, "src", "deep", "other.ts"), "export {};\n");
    fs.writeFileSync(path.join(sb.project, "README.md"), "# p\n");
    fake = await startFakeOllama({ models: [{ name: MODEL }] });
    tui = new Tui(sb, ["--host", fake.url, "--model", MODEL]);
    await tui.waitFor("Ask anything", 20_000);
    tui.type("explain @src/deep/fi");
    tui.press("Tab");
    await tui.waitFor("explain @src/deep/file-xyz.ts", 10_000);
  });
});
