// Golden frames: a view frame rendered to text (escape codes made visible, so styles are part of
// what is compared) and compared exactly with a file beside this one. UPDATE_GOLDEN=1 rewrites
// the files instead; review the diff before committing it.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { expect } from "vitest";
import type { Frame } from "../../../src/ui/view/index.js";

const DIR = path.dirname(fileURLToPath(import.meta.url));

/** The frame as the screen shows it, top to bottom, with ESC shown as "␛". */
export function frameText(frame: Frame, height: number): string {
  const rows = height - frame.input.length - 2;
  const transcript = [...Array<string>(Math.max(0, rows - frame.transcript.length)).fill(""), ...frame.transcript];
  return [...transcript, frame.status, frame.rule, ...frame.input].join("\n").replace(/\x1b/g, "␛") + "\n";
}

export function expectGolden(name: string, text: string): void {
  const file = path.join(DIR, `${name}.txt`);
  if (process.env.UPDATE_GOLDEN === "1" || !fs.existsSync(file)) {
    if (process.env.CI) throw new Error(`golden file ${name}.txt is missing`);
    fs.writeFileSync(file, text);
  }
  expect(text).toBe(fs.readFileSync(file, "utf8"));
}
