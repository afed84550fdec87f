import { PassThrough } from "node:stream";
import blessed from "blessed";
import { describe, expect, it } from "vitest";
import { outboundSgr, patchBlessed } from "../../src/ui/runtime/terminal.js";
import { theme } from "../../src/render/theme.js";

/** What blessed writes to the terminal for one line of styled content. */
function paint(content: string): string {
  patchBlessed();
  const output = new PassThrough();
  let written = "";
  output.on("data", (d: Buffer) => (written += d.toString("utf8")));
  Object.assign(output, { isTTY: true, columns: 40, rows: 5 });
  const screen = blessed.screen({
    input: new PassThrough(),
    output: output as unknown as NodeJS.WriteStream,
    terminal: "xterm-256color",
    fullUnicode: true,
    warnings: false,
  });
  blessed.box({ parent: screen, top: 0, left: 0, width: "100%", height: 1, tags: false, content });
  screen.render();
  screen.destroy();
  return written;
}

describe("italic and strikethrough reach the terminal through blessed", () => {
  it("an italic span is written with SGR 3, a struck one with SGR 9", () => {
    const out = paint(`a ${theme.em("soft")} b ${theme.del("gone")}`);
    expect(out).toMatch(/\x1b\[(?:[0-9;]*;)?3(?:;[0-9;]*)?msoft/);
    expect(out).toMatch(/\x1b\[(?:[0-9;]*;)?9(?:;[0-9;]*)?mgone/);
  });

  it("colour parameters that contain a 5 or an 8 are left alone", () => {
    expect(outboundSgr("\x1b[1;5;38;5;245m")).toBe("\x1b[1;3;38;5;245m");
    expect(outboundSgr("\x1b[38;2;5;8;5;8m")).toBe("\x1b[38;2;5;8;5;9m");
    expect(outboundSgr("\x1b[48;5;8m")).toBe("\x1b[48;5;8m");
  });
});
