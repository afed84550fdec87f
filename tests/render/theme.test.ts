import { expect, test } from "vitest";
import { chalk, theme } from "../../src/render/theme.js";

test("styles are always emitted as 256-colour SGR, whether or not stdout is a terminal", () => {
  expect(chalk.level).toBe(2);
  expect(theme.err("x")).toBe("\x1b[31mx\x1b[39m");
  expect(theme.heading("h")).toBe("\x1b[1m\x1b[38;5;114mh\x1b[39m\x1b[22m");
  // blessed ignores SGR 2 (dim): dim must be a colour.
  expect(theme.dim("d")).toBe("\x1b[38;5;245md\x1b[39m");
});
