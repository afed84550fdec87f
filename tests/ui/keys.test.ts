import { describe, expect, it } from "vitest";
import { createInputDecoder } from "../../src/ui/keys.js";

const keys = (...chunks: string[]) => {
  const feed = createInputDecoder();
  return chunks.flatMap((c) => feed(c));
};

describe("decoding what the terminal sends", () => {
  it("turns printable text, Enter and control keys into key messages", () => {
    expect(keys("hi\r")).toEqual([
      { type: "key", key: { name: "h" } },
      { type: "key", key: { name: "i" } },
      { type: "key", key: { name: "enter" } },
    ]);
    expect(keys("\x03\x04\n\x7f\t")).toEqual([
      { type: "key", key: { name: "c", ctrl: true } },
      { type: "key", key: { name: "d", ctrl: true } },
      { type: "key", key: { name: "j", ctrl: true } },
      { type: "key", key: { name: "backspace" } },
      { type: "key", key: { name: "tab" } },
    ]);
  });

  it("knows arrows, paging and Home/End in their common encodings, and Alt+Enter", () => {
    expect(keys("\x1b[A\x1bOB\x1b[5~\x1b[6~\x1b[H\x1b[4~").map((m) => m.type === "key" && m.key.name)).toEqual([
      "up",
      "down",
      "pageup",
      "pagedown",
      "home",
      "end",
    ]);
    expect(keys("\x1b\r")).toEqual([{ type: "key", key: { name: "enter", meta: true } }]);
    expect(keys("\x1bo")).toEqual([{ type: "key", key: { name: "o", meta: true } }]);
  });

  it("a lone ESC is the Escape key", () => {
    expect(keys("\x1b")).toEqual([{ type: "key", key: { name: "escape" } }]);
  });

  it("a bracketed paste is one message, even across several reads, and never an Enter", () => {
    expect(keys("\x1b[200~line one\rline", " two\x1b[201~x")).toEqual([
      { type: "paste", text: "line one\rline two" },
      { type: "key", key: { name: "x" } },
    ]);
  });

  it("mouse wheel reports become wheel messages; other mouse events are ignored", () => {
    expect(keys("\x1b[<64;10;5M\x1b[<65;10;5M\x1b[<0;10;5M")).toEqual([
      { type: "wheel", direction: "up" },
      { type: "wheel", direction: "down" },
    ]);
  });

  it("an escape sequence split across two reads is still one key", () => {
    expect(keys("\x1b[", "A")).toEqual([{ type: "key", key: { name: "up" } }]);
    expect(keys("a\x1b[5", "~b")).toEqual([
      { type: "key", key: { name: "a" } },
      { type: "key", key: { name: "pageup" } },
      { type: "key", key: { name: "b" } },
    ]);
  });
});

describe("the wheel in alternate-scroll mode", () => {
  it("a burst of one arrow in one write is the wheel; single arrows stay keys", () => {
    expect(keys("\x1b[A\x1b[A\x1b[A")).toEqual([{ type: "wheel", direction: "up", lines: 3 }]);
    expect(keys("\x1bOB\x1bOB")).toEqual([{ type: "wheel", direction: "down", lines: 2 }]);
    expect(keys("\x1b[A", "\x1b[A")).toEqual([
      { type: "key", key: { name: "up" } },
      { type: "key", key: { name: "up" } },
    ]);
    // Mixed arrows are keys, not a wheel.
    expect(keys("\x1b[A\x1b[B").map((m) => m.type)).toEqual(["key", "key"]);
  });

  it("word moves and transcript keys decode with their modifiers", () => {
    expect(keys("\x1b[1;3D\x1b[1;3C\x1b[1;5H\x1b[1;5F")).toEqual([
      { type: "key", key: { name: "left", meta: true } },
      { type: "key", key: { name: "right", meta: true } },
      { type: "key", key: { name: "home", ctrl: true } },
      { type: "key", key: { name: "end", ctrl: true } },
    ]);
  });
});
