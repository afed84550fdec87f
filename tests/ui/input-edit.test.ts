import { describe, expect, it } from "vitest";
import { applyEdit, editActionFor, type EditAction, type InputState } from "../../src/ui/update/input-edit.js";
import { wrapInput } from "../../src/ui/layout/input.js";
import { view } from "../../src/ui/view/index.js";
import { feed, key, newModel, strip, typeText } from "./helpers.js";

/** "ab|cd" -> { text: "abcd", cursor: 2 } */
const at = (s: string): InputState => ({ text: s.replace("|", ""), cursor: s.indexOf("|") });
const show = (st: InputState) => st.text.slice(0, st.cursor) + "|" + st.text.slice(st.cursor);
const run = (s: string, action: EditAction) => show(applyEdit(at(s), action));

describe("input editing", () => {
  it("moves by word over words and punctuation runs", () => {
    expect(run("cat src/ui/model.ts|", "word-left")).toBe("cat src/ui/model.|ts");
    expect(run("hello   world|", "word-left")).toBe("hello   |world");
    expect(run("|hello world", "word-right")).toBe("hello| world");
    expect(run("hello| world", "word-right")).toBe("hello world|");
  });

  it("Ctrl+W / Alt+Backspace delete the word before the cursor", () => {
    expect(run("git commit -m fix|", "delete-word-back")).toBe("git commit -m |");
    expect(run("one two  |", "delete-word-back")).toBe("one |");
  });

  it("Ctrl+U / Ctrl+K delete to the start / end of the line only", () => {
    expect(run("first\nsec|ond", "delete-to-line-start")).toBe("first\n|ond");
    expect(run("fi|rst\nsecond", "delete-to-line-end")).toBe("fi|\nsecond");
    // At a line's edge they remove the line break, as readline does.
    expect(run("first\n|second", "delete-to-line-start")).toBe("first|second");
  });

  it("never splits an emoji", () => {
    expect(run("a😀|", "left")).toBe("a|😀");
    expect(run("a😀|", "delete-back")).toBe("a|");
    expect(run("a|😀b", "delete-forward")).toBe("a|b");
  });

  it("Home/End edit a non-empty input, and leave an empty one to the transcript", () => {
    expect(editActionFor({ name: "home" }, at("ab|c"))).toBe("line-start");
    expect(editActionFor({ name: "end" }, at("|"))).toBeUndefined();
    expect(editActionFor({ name: "left", meta: true }, at("ab|"))).toBe("word-left");
    expect(editActionFor({ name: "backspace", meta: true }, at("ab|"))).toBe("delete-word-back");
  });
});

describe("the input box grows", () => {
  it("wraps a long line and shows all of it with the prompt on the first row", () => {
    const text = "x".repeat(300);
    const model = feed(newModel({ width: 80, height: 30 }), ...typeText(text)).model;
    const frame = view(model);
    expect(frame.input.length).toBe(4);
    expect(strip(frame.input[0]!)).toMatch(/^› x+$/);
    expect(frame.input.map((l) => strip(l).slice(2)).join("")).toBe(text);
    // The cursor sits after the last character, on the screen's last row.
    expect(frame.cursor.row).toBe(29);
  });

  it("stops at a third of the screen and keeps the cursor's row in view", () => {
    const text = "y".repeat(78 * 20);
    let model = feed(newModel({ width: 80, height: 30 }), ...typeText(text)).model;
    expect(view(model).input.length).toBe(10);
    model = feed(model, key("home")).model;
    const frame = view(model);
    expect(strip(frame.input[0]!)).toMatch(/^› y/);
    expect(frame.cursor.col).toBe(2);
  });

  it("a cursor at the end of a full row goes to the next row", () => {
    const w = wrapInput("z".repeat(78), 78, 80);
    expect(w.rows.length).toBe(2);
    expect([w.cursorRow, w.cursorCol]).toEqual([1, 0]);
  });
});

describe("Up and Down in a wrapped input", () => {
  // Width 20: 18 columns after the prompt. 40 letters wrap to rows of 18, 18 and 4.
  const long = "abcdefghijklmnopqrstuvwxyz0123456789ABCD";
  const typed = () =>
    feed(newModel({ width: 20, height: 30 }), ...typeText("earlier"), key("enter"), ...typeText(long));

  it("move between the rows of one long line at the same column before walking the history", () => {
    let model = typed().model;
    expect(wrapInput(long, long.length, 20).rows).toEqual([long.slice(0, 18), long.slice(18, 36), long.slice(36)]);
    expect(model.input.cursor).toBe(40);
    model = feed(model, key("up")).model;
    expect(model.input.cursor).toBe(22); // row 2, column 4
    model = feed(model, key("up")).model;
    expect(model.input.cursor).toBe(4);
    expect(model.input.text).toBe(long);
    model = feed(model, key("up")).model;
    expect(model.input.text).toBe("earlier");
  });

  it("Down from a long row to a short one stops at its end; from the last row it leaves the history", () => {
    let model = feed(typed().model, key("home"), key("right"), key("right"), key("right")).model;
    expect(model.input.cursor).toBe(3);
    model = feed(model, key("down")).model;
    expect(model.input.cursor).toBe(21);
    model = feed(model, key("end"), key("up")).model;
    // From column 4 of the last row up, then at column 17 (the end of a wrapping row) down again.
    expect(model.input.cursor).toBe(22);
    model = feed(model, ...Array.from({ length: 13 }, () => key("right")), key("down")).model;
    expect(model.input.cursor).toBe(40);
    expect(feed(model, key("down")).model.input.text).toBe(long);
  });

  it("a wrapping row never puts the cursor on the next row's first column", () => {
    // A wide character that does not fit ends row 0 at 17 columns: x*17 | 宽 y*16 | y*4.
    const text = "x".repeat(17) + "宽" + "y".repeat(20);
    expect(wrapInput(text, 0, 20).starts).toEqual([0, 17, 34]);
    let model = feed(newModel({ width: 20, height: 30 }), ...typeText(text)).model;
    model = feed(model, key("up")).model;
    expect(model.input.cursor).toBe(20); // row 1, column 4: 宽 and two y
    model = feed(model, ...Array.from({ length: 13 }, () => key("right")), key("up")).model;
    // From column 17 of row 1: row 0 ends at column 17, so the cursor stops on its last x.
    expect(model.input.cursor).toBe(16);
    expect(view(model).cursor.col).toBe(2 + 16);
  });
});
