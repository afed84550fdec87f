// What every dialog is drawn as: a bordered box across the screen's width, just above the status
// line (painter.ts places it; layout/screen.ts says how many rows it may take).
import { padLine, truncateLine } from "../../render/wrap.js";

export interface DialogBox {
  title: string;
  /** Inside the border, each `width - 2` columns. */
  lines: string[];
  width: number;
  /** Rows, the border included. */
  height: number;
}

/** One line inside the box: a column of space from the border, cut or padded to `inner`. */
export function boxLine(line: string, inner: number): string {
  return " " + padLine(truncateLine(line, inner), inner);
}
