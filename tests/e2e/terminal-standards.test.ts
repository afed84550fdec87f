// The terminal's own standards, in a real terminal: tmux's extended keys (modifyOtherKeys), the
// kitty keyboard protocol through term-proxy.py (a terminal in between that answers the query and
// keeps the modes the app sets, so they can be read back after exit, Ctrl+Z and a crash), OSC 8
// links and OSC 9;4 progress in the raw output, and Tab on an @ mention typed right after start.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { startFakeOllama, type FakeOllama } from "../fakes/ollama-server.js";
import { BIN, Tui, type Sandbox, eachTest, waitUntil } from "./harness.js";

const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), "fixtures");
const PROXY_BIN = path.join(FIXTURES, "term-proxy-bin.mjs");
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
  const written = () => (fs.existsSync(rawLog()) ? fs.readFileSync(rawLog(), "latin1") : "");
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

  it("a file path in an answer is an OSC 8 link; OSC 9;4 shows during the run and is cleared after", async () => {
    fake = await startFakeOllama({
      models: [{ name: MODEL }],
      replies: [{ steps: [{ text: "The entry point is src/main.ts:3 and docs at https://example.org/guide." }] }],
    });
    Object.assign(sb.env, { TERM_PROXY_LOG: rawLog(), FORCE_HYPERLINK: "1", TERM_PROGRAM: "ghostty" });
    tui = new Tui(sb, ["--host", fake.url, "--model", MODEL], { bin: PROXY_BIN });
    await tui.waitFor("Ask anything", 20_000);
    await tui.ask("where does it start?", "https://example.org/guide");
    const out = written();
    const fileLink = `\x1b]8;;file://${os.hostname()}${sb.project}/src/main.ts#3\x1b\\`;
    expect(out).toContain(fileLink);
    expect(out.slice(out.indexOf(fileLink))).toMatch(/^[^\n]*?src\/main\.ts:3(?:\x1b\[[0-9;]*m)*\x1b\]8;;\x1b\\/);
    expect(out).toContain("\x1b]8;;https://example.org/guide\x1b\\");
    const busy = out.indexOf("\x1b]9;4;3\x1b\\");
    expect(busy).toBeGreaterThan(-1);
    expect(out.indexOf("\x1b]9;4;0\x1b\\", busy)).toBeGreaterThan(busy);
  });

  it("without those terminals' signs, neither links nor progress are written", async () => {
    fake = await startFakeOllama({ models: [{ name: MODEL }], replies: [{ steps: [{ text: "see src/main.ts" }] }] });
    Object.assign(sb.env, { TERM_PROXY_LOG: rawLog() });
    tui = new Tui(sb, ["--host", fake.url, "--model", MODEL], { bin: PROXY_BIN });
    await tui.waitFor("Ask anything", 20_000);
    await tui.ask("hi", "see src/main.ts");
    expect(written()).not.toContain("\x1b]8;;file:");
    expect(written()).not.toContain("\x1b]9;4;");
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

describe("themes in a real terminal", () => {
  let fake: FakeOllama;
  let sb: Sandbox;
  let tui: Tui | undefined;
  eachTest(
    (s) => (sb = s),
    () => [tui, fake],
  );
  // The user's line (theme.user, colour 75) as the terminal gets it in each theme: the light theme
  // darkens it to 25, which the dark theme never uses (greys will not do: light mirrors them).
  const DARK_USER = "38;5;75m";
  const LIGHT_USER = "38;5;25m";
  const written = () => fs.readFileSync(path.join(sb.home, "tty.log"), "latin1");
  // After the terminal's background answer, the bytes the app wrote: a screen clear would show
  // as an empty screen for a moment on a terminal without synchronized output.
  const afterAnswer = () => written().slice(written().indexOf("\x1b]11;?"));
  const CLEAR = /\x1b\[H\x1b\[2?J/;

  it("a terminal that answers OSC 11 with a white background gets the light theme; /theme switches and is saved", async () => {
    fake = await startFakeOllama({ models: [{ name: MODEL }] });
    Object.assign(sb.env, { TERM_PROXY_BG: "rgb:ffff/ffff/ffff", TERM_PROXY_LOG: path.join(sb.home, "tty.log") });
    tui = await Tui.open(sb, ["--host", fake.url, "--model", MODEL], { bin: PROXY_BIN });
    await tui.ask("hi", /^ok$/m);
    await waitUntil(() => tui!.screenAnsi().includes(LIGHT_USER), 10_000, "the light theme's user colour");
    expect(tui.screenAnsi()).not.toContain(DARK_USER);
    expect(afterAnswer()).not.toMatch(CLEAR);
    tui.send("/theme ansi16");
    await waitUntil(() => !/38;5;\d+m/.test(tui!.screenAnsi()), 10_000, "only the 16 basic colours");
    // The screen may repaint before the save lands: wait for the file, as a second launch would read it.
    const configFile = path.join(sb.env.XDG_CONFIG_HOME!, "agent0", "config.json");
    const saved = () =>
      fs.existsSync(configFile) ? (JSON.parse(fs.readFileSync(configFile, "utf8")) as { theme?: string }) : {};
    await waitUntil(() => saved().theme !== undefined, 10_000, "the theme saved to the config");
    expect(saved().theme).toBe("ansi16");
  });

  it("the config's theme wins over the terminal's background", async () => {
    fake = await startFakeOllama({ models: [{ name: MODEL }] });
    fs.writeFileSync(path.join(sb.env.XDG_CONFIG_HOME!, "agent0", "config.json"), JSON.stringify({ theme: "dark" }));
    Object.assign(sb.env, { TERM_PROXY_BG: "rgb:ffff/ffff/ffff", TERM_PROXY_LOG: path.join(sb.home, "tty.log") });
    tui = await Tui.open(sb, ["--host", fake.url, "--model", MODEL], { bin: PROXY_BIN });
    const screen = await tui.ask("hi", /^ok$/m);
    expect(tui.screenAnsi()).toContain(DARK_USER);
    expect(tui.screenAnsi()).not.toContain(LIGHT_USER);
    // The terminal's answer came first, the config after: the screen was never light, never cleared.
    expect(afterAnswer()).not.toMatch(/38;5;(25|65)m/);
    expect(afterAnswer()).not.toMatch(CLEAR);
    expect(screen).toMatch(/^› hi/m);
  });
});
