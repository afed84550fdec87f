import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { expect } from "vitest";
import type { Frame } from "../../src/ui/view/index.js";

const DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), "golden");

/**
 * A whole frame as text: every row of the screen in order, the cursor, and the dialog if one is
 * open. Escape characters are written as ␛ so a golden file reads (and diffs) as text, colours
 * included.
 */
export function frameText(frame: Frame): string {
  const visible = (s: string) => s.replace(/\x1b/g, "␛");
  // The dialog sits where it is painted: under the transcript, above the status line.
  const d = frame.dialog;
  const dialog = d
    ? [`-- dialog ${d.width}x${d.height}: ${visible(d.title)}`, ...d.lines.map(visible), "-- end of dialog"]
    : [];
  const out = [
    ...frame.transcript.map(visible),
    ...dialog,
    visible(frame.status),
    visible(frame.rule),
    ...frame.input.map(visible),
    `-- cursor ${frame.cursor.row}:${frame.cursor.col}`,
  ];
  return out.join("\n") + "\n";
}

/**
 * Compares a frame with tests/ui/golden/<name>.txt exactly. UPDATE_GOLDEN=1 writes the file
 * instead, so a rendering change shows up as a reviewed diff of that file.
 */
export function expectGolden(name: string, frame: Frame, env: NodeJS.ProcessEnv = process.env): void {
  const file = path.join(DIR, `${name}.txt`);
  const text = frameText(frame);
  if (env.UPDATE_GOLDEN === "1") {
    // Rewriting would pass every frame unseen: a CI run must compare, never write.
    if (env.CI)
      throw new Error("UPDATE_GOLDEN=1 is refused where CI is set: rewrite golden frames locally and review the diff.");
    fs.mkdirSync(DIR, { recursive: true });
    fs.writeFileSync(file, text);
    return;
  }
  if (!fs.existsSync(file)) throw new Error(`${file} is missing: run the test with UPDATE_GOLDEN=1 and review it`);
  expect(text).toBe(fs.readFileSync(file, "utf8"));
}
