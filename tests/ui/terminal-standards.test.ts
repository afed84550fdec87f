// The terminal's own standards: the kitty keyboard protocol and xterm's modifyOtherKeys (as tmux's
// extended keys send it), OSC 11's background answer, OSC 8 links, OSC 9;4 progress and themes.
import { describe, expect, it } from "vitest";
import { createInputDecoder } from "../../src/ui/keys.js";
import { view } from "../../src/ui/view/index.js";
import { linkify, takeLinks } from "../../src/ui/layout/links.js";
import { themeForBackground, themeSgr } from "../../src/render/theme.js";
import { cmdKind, feed, key, newModel, typeText } from "./helpers.js";
import type { Msg } from "../../src/ui/msg.js";
import type { FileMatches } from "../../src/protocol/file-index.js";

const decode = (...chunks: string[]) => {
  const feedBytes = createInputDecoder();
  return chunks.flatMap((c) => feedBytes(c));
};

describe("keys told apart by their modifiers", () => {
  // Each row: what the terminal sends, the key it is, and where the encoding is written down.
  const rows: [string, string, Msg][] = [
    // kitty's keyboard protocol, "disambiguate escape codes": https://sw.kovidgoyal.net/kitty/keyboard-protocol/
    ["\x1b[13;2u", "kitty: Shift+Enter", { type: "key", key: { name: "enter", shift: true } }],
    ["\x1b[13;5u", "kitty: Ctrl+Enter", { type: "key", key: { name: "enter", ctrl: true } }],
    ["\x1b[13;3u", "kitty: Alt+Enter", { type: "key", key: { name: "enter", meta: true } }],
    ["\x1b[27u", "kitty: Esc, unambiguous", { type: "key", key: { name: "escape" } }],
    ["\x1b[99;5u", "kitty: Ctrl+C", { type: "key", key: { name: "c", ctrl: true } }],
    ["\x1b[97;6u", "kitty: Ctrl+Shift+A", { type: "key", key: { name: "a", ctrl: true, shift: true } }],
    ["\x1b[9;2u", "kitty: Shift+Tab as CSI u", { type: "key", key: { name: "tab", shift: true } }],
    ["\x1b[127;3u", "kitty: Alt+Backspace", { type: "key", key: { name: "backspace", meta: true } }],
    ["\x1b[57414u", "kitty: keypad Enter (private-use code)", { type: "key", key: { name: "enter" } }],
    [
      "\x1b[97:65;6u",
      "kitty: a key with its shifted alternate",
      { type: "key", key: { name: "a", ctrl: true, shift: true } },
    ],
    // xterm's modifyOtherKeys with formatOtherKeys 0 (ctlseqs, "CSI > 4 ; 1 m"): CSI 27 ; mods ; code ~
    ["\x1b[27;2;13~", "xterm modifyOtherKeys: Shift+Enter", { type: "key", key: { name: "enter", shift: true } }],
    ["\x1b[27;5;13~", "xterm modifyOtherKeys: Ctrl+Enter", { type: "key", key: { name: "enter", ctrl: true } }],
  ];
  it.each(rows)("%j is %s", (bytes, _what, msg) => {
    expect(decode(bytes)).toEqual([msg]);
  });

  it("tmux 3.3a with extended-keys on sends these bytes for S-Enter, C-Enter, M-Enter (read off tmux here)", () => {
    // Captured from `tmux send-keys S-Enter C-Enter M-Enter` into a pane that asked for modifyOtherKeys 1.
    expect(decode("\x1b[13;2u\x1b[13;5u\x1b\r")).toEqual([
      { type: "key", key: { name: "enter", shift: true } },
      { type: "key", key: { name: "enter", ctrl: true } },
      { type: "key", key: { name: "enter", meta: true } },
    ]);
  });

  it("a CSI u key split across two reads is still one key", () => {
    expect(decode("\x1b[13;", "2u")).toEqual([{ type: "key", key: { name: "enter", shift: true } }]);
  });

  it("reads the answer to the kitty query, and OSC 11's colour with ST or BEL, never as typed text", () => {
    expect(decode("\x1b[?0u")).toEqual([{ type: "keyboard-protocol", flags: 0 }]);
    expect(decode("\x1b]11;rgb:ffff/ffff/ffff\x1b\\x")).toEqual([
      { type: "terminal-background", rgb: [1, 1, 1] },
      { type: "key", key: { name: "x" } },
    ]);
    // xterm answers with BEL when asked with BEL; some terminals use 2 hex digits a channel.
    expect(decode("\x1b]11;rgb:00/00/00\x07")).toEqual([{ type: "terminal-background", rgb: [0, 0, 0] }]);
    expect(decode("\x1b]11;rgb:fdfd/f6", "f6/e3e3\x1b\\")).toEqual([
      { type: "terminal-background", rgb: [0xfdfd / 0xffff, 0xf6f6 / 0xffff, 0xe3e3 / 0xffff] },
    ]);
    // Any other OSC string is swallowed, not typed into the input.
    expect(decode("\x1b]10;rgb:0/0/0\x1b\\")).toEqual([]);
  });
});

describe("what the keys do in the input", () => {
  it("Shift+Enter and Ctrl+Enter add a line and send nothing; Enter sends", () => {
    const { model, cmds } = feed(
      newModel(),
      ...typeText("one"),
      { type: "key", key: { name: "enter", shift: true } },
      ...typeText("two"),
      { type: "key", key: { name: "enter", ctrl: true } },
      ...typeText("three"),
    );
    expect(model.input.text).toBe("one\ntwo\nthree");
    expect(model.run).toBeNull();
    expect(cmds.map(cmdKind)).not.toContain("run");
  });

  it("Alt+Enter during a run still keeps the message for after it; Shift+Enter stays a new line", () => {
    let { model } = feed(newModel(), ...typeText("go"), key("enter"));
    expect(model.run).not.toBeNull();
    ({ model } = feed(model, ...typeText("a"), { type: "key", key: { name: "enter", shift: true } }, ...typeText("b")));
    expect(model.input.text).toBe("a\nb");
    ({ model } = feed(model, key("enter", { meta: true })));
    expect(model.queued).toEqual(["a\nb"]);
  });

  it("Ctrl+Z asks the runtime to suspend the app", () => {
    expect(feed(newModel(), key("z", { ctrl: true })).cmds).toEqual([{ type: "suspend" }]);
  });

  it("the kitty answer turns the protocol on in the frame", () => {
    expect(view(newModel()).keyboard).toBeUndefined();
    expect(view(feed(newModel(), { type: "keyboard-protocol", flags: 0 }).model).keyboard).toBe("kitty");
  });
});

describe("themes", () => {
  it("a light background picks the light theme, a dark one the dark; the config's choice wins over both", () => {
    const light = feed(newModel(), { type: "terminal-background", rgb: [0.99, 0.96, 0.89] }).model;
    expect(light.theme.name).toBe("light");
    expect(view(light).theme).toBe("light");
    expect(feed(newModel(), { type: "terminal-background", rgb: [0.1, 0.1, 0.12] }).model.theme.name).toBe("dark");
    const chosen = feed(newModel(), { type: "terminal-background", rgb: [1, 1, 1] }).model;
    const after = feed(chosen, ...typeText("/theme ansi16"), key("enter"));
    expect(after.model.theme).toEqual({ name: "ansi16", source: "config" });
    expect(after.cmds).toContainEqual({ type: "save-config", keys: { theme: "ansi16" } });
    // A later answer from the terminal does not undo the user's choice.
    expect(feed(after.model, { type: "terminal-background", rgb: [0, 0, 0] }).model.theme.name).toBe("ansi16");
  });

  it("an unknown theme is refused with the names", () => {
    const { model, cmds } = feed(newModel(), ...typeText("/theme solarized"), key("enter"));
    expect(model.theme.name).toBe("dark");
    expect(cmds.map(cmdKind)).not.toContain("save-config");
    expect(JSON.stringify(model.entries.at(-1))).toContain("dark, light, ansi16");
  });

  it("maps colours where the frame meets the terminal: light darkens, ansi16 uses the 16 basic colours", () => {
    const grey = "\x1b[38;5;252mcode\x1b[39m";
    expect(themeSgr(grey, "dark")).toBe(grey);
    // 252 is a light grey: on a light background it becomes the mirrored dark grey 235.
    expect(themeSgr(grey, "light")).toBe("\x1b[38;5;235mcode\x1b[39m");
    // The nearest basic colour of 252 (208,208,208) is white (7), written as SGR 37.
    expect(themeSgr(grey, "ansi16")).toBe("\x1b[37mcode\x1b[39m");
    expect(themeSgr("\x1b[1;38;5;75mx", "ansi16")).toBe("\x1b[1;94mx");
    // Basic colours are the terminal's own already.
    expect(themeSgr("\x1b[32mok\x1b[39m", "light")).toBe("\x1b[32mok\x1b[39m");
    expect(themeForBackground([1, 1, 1])).toBe("light");
    expect(themeForBackground([0.16, 0.17, 0.2])).toBe("dark");
  });
});

describe("OSC 8 links", () => {
  const base = { cwd: "/home/u/proj", host: "box" };
  const link = (url: string, text: string) => `\x1b]8;;${url}\x1b\\${text}\x1b]8;;\x1b\\`;

  it.each([
    ["see https://example.com/a?b=1.", `see ${link("https://example.com/a?b=1", "https://example.com/a?b=1")}.`],
    ["edit src/main.ts:12 now", `edit ${link("file://box/home/u/proj/src/main.ts#12", "src/main.ts:12")} now`],
    ["read ./README.md", `read ${link("file://box/home/u/proj/README.md", "./README.md")}`],
    ["/etc/hosts", link("file://box/etc/hosts", "/etc/hosts")],
    ["package.json changed", `${link("file://box/home/u/proj/package.json", "package.json")} changed`],
    ["a dir with space/x y", `a dir with ${link("file://box/home/u/proj/space/x", "space/x")} y`],
    ["../lib/a.py:3:9,", `${link("file://box/home/u/lib/a.py#3", "../lib/a.py:3:9")},`],
  ])("%j", (line, linked) => {
    expect(linkify(line, base)).toBe(linked);
  });

  it.each(["version 1.2.3", "pi is 3.14", "e.g. this", "mail me@host.com", "a // comment", "and/or"])(
    "leaves %j alone",
    (line) => {
      const out = linkify(line, base);
      if (line === "and/or") expect(out).toContain("and/or");
      else expect(out).toBe(line);
    },
  );

  it("keeps colours and finds the cells: takeLinks gives back the line blessed draws and each link's column", () => {
    const line = `\x1b[38;5;180m✓ 漢 Read \x1b[39m${linkify("src/a.ts", base)} ok`;
    const { plain, spans } = takeLinks(line);
    expect(plain).toBe("\x1b[38;5;180m✓ 漢 Read \x1b[39msrc/a.ts ok");
    // "✓ 漢 Read " is 10 cells (漢 is wide).
    expect(spans).toHaveLength(1);
    expect(spans[0]).toMatchObject({ col: 10, url: "file://box/home/u/proj/src/a.ts" });
    // Written over its cells with the colours in force there: the line's colour was reset before it.
    expect(spans[0]!.text).toBe("\x1b[38;5;180m\x1b[39msrc/a.ts");
    const coloured = takeLinks(`\x1b[38;5;75m${link("https://x.org", "https://x.org")}\x1b[39m`);
    expect(coloured.spans[0]!.text).toBe("\x1b[38;5;75mhttps://x.org");
  });

  it("view links the transcript only where the terminal shows links", () => {
    const withFile = feed(newModel(), { type: "notice", level: "info", text: "see src/main.ts" }).model;
    expect(view(withFile).transcript.join("\n")).not.toContain("\x1b]8;;");
    const linked = feed(withFile, {
      type: "boot-ready",
      config: withFile.config,
      sessionId: "s1",
      conversation: [],
      skills: [],
      warnings: [],
      terminal: { hyperlinks: true, progress: false, host: "box" },
    }).model;
    const after = feed(linked, { type: "notice", level: "info", text: "see src/main.ts" }).model;
    expect(view(after).transcript.join("\n")).toContain("\x1b]8;;file://box/project/src/main.ts\x1b\\src/main.ts");
  });
});

describe("OSC 9;4 progress", () => {
  const ready = (progress: boolean): Msg => {
    const m = newModel();
    return {
      type: "boot-ready",
      config: m.config,
      sessionId: "s1",
      conversation: [],
      skills: [],
      warnings: [],
      terminal: { hyperlinks: false, progress, host: "h" },
    };
  };

  it("busy while a run goes, the error state after a failed run, cleared by the next; nothing where not shown", () => {
    let { model } = feed(newModel(), ready(true), ...typeText("go"), key("enter"));
    expect(view(model).progress).toBe("busy");
    ({ model } = feed(model, { type: "agent", event: { type: "done", reason: "error" } }));
    expect(view(model).progress).toBe("error");
    ({ model } = feed(model, ...typeText("again"), key("enter")));
    expect(view(model).progress).toBe("busy");
    ({ model } = feed(model, { type: "agent", event: { type: "done", reason: "complete" } }));
    expect(view(model).progress).toBeUndefined();
    const silent = feed(newModel(), ready(false), ...typeText("go"), key("enter")).model;
    expect(view(silent).progress).toBeUndefined();
  });
});

describe("Tab on an @ mention the file index has not answered", () => {
  const answer = (query: string, paths: string[], over: Partial<FileMatches> = {}): Msg => ({
    type: "files-matched",
    matches: {
      type: "matches",
      query,
      paths,
      total: paths.length,
      indexed: 100,
      building: false,
      ranking: false,
      ...over,
    },
  });

  it("completes when the answer comes, with its one match (the issue's regression: it took a second Tab)", () => {
    let { model } = feed(newModel(), ...typeText("explain @src/deep/fi"), key("tab"));
    expect(model.input.text).toBe("explain @src/deep/fi");
    // The best so far of a ranking is not the answer yet.
    ({ model } = feed(model, answer("src/deep/fi", ["src/deep/file-xyz.ts"], { ranking: true })));
    expect(model.input.text).toBe("explain @src/deep/fi");
    ({ model } = feed(model, answer("src/deep/fi", ["src/deep/file-xyz.ts"])));
    expect(model.input.text).toBe("explain @src/deep/file-xyz.ts ");
  });

  it("a key typed after the Tab takes it back", () => {
    let { model } = feed(newModel(), ...typeText("explain @src/deep/fi"), key("tab"), ...typeText("l"));
    ({ model } = feed(model, answer("src/deep/fil", ["src/deep/file-xyz.ts"])));
    expect(model.input.text).toBe("explain @src/deep/fil");
  });
});
