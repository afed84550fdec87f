// Themes in a real terminal, behind term-proxy.py (which answers the OSC 11 background query and
// logs the raw output): a white background picks the light theme, /theme switches and is saved,
// and the config's theme wins over the background; the screen is never cleared on the way. Split
// from terminal-standards.test.ts.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { startFakeOllama, type FakeOllama } from "../fakes/ollama-server.js";
import { TERM_PROXY_BIN, Tui, type Sandbox, eachTest, waitUntil } from "./harness.js";

const MODEL = "qwen3:8b";

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
    tui = await Tui.open(sb, ["--host", fake.url, "--model", MODEL], { bin: TERM_PROXY_BIN });
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
    tui = await Tui.open(sb, ["--host", fake.url, "--model", MODEL], { bin: TERM_PROXY_BIN });
    const screen = await tui.ask("hi", /^ok$/m);
    expect(tui.screenAnsi()).toContain(DARK_USER);
    expect(tui.screenAnsi()).not.toContain(LIGHT_USER);
    // The terminal's answer came first, the config after: the screen was never light, never cleared.
    expect(afterAnswer()).not.toMatch(/38;5;(25|65)m/);
    expect(afterAnswer()).not.toMatch(CLEAR);
    expect(screen).toMatch(/^› hi/m);
  });
});
