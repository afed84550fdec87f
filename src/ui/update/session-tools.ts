// /cost and /diff: what this session spent and what it changed.
import { priceOf } from "../../context/prices.js";
import type { Model } from "../model.js";
import { addEntry } from "./transcript.js";

function tokens(n: number): string {
  return n >= 1000 ? `${(n / 1000).toFixed(1)}k` : String(n);
}

function duration(ms: number): string {
  const s = Math.round(ms / 1000);
  return s >= 60 ? `${Math.floor(s / 60)}m ${s % 60}s` : `${s}s`;
}

/** Per model: requests, tokens in and out, the time its runs took, and dollars where the price is known. */
export function costReport(model: Model): string {
  const rows = Object.entries(model.stats.byModel);
  if (rows.length === 0) return "Nothing spent yet in this launch.";
  const local = model.config.provider === "ollama";
  let total = 0;
  let priced = false;
  const lines = rows.map(([name, s]) => {
    const dollars = local ? undefined : priceOf(name, s.tokensIn, s.tokensOut);
    if (dollars !== undefined) {
      total += dollars;
      priced = true;
    }
    const money = local ? "local: no charge" : dollars !== undefined ? `≈ $${dollars.toFixed(4)}` : "price not known";
    return `${name}: ${s.requests} requests · ${tokens(s.tokensIn)} in / ${tokens(s.tokensOut)} out · ${duration(s.ms)} · ${money}`;
  });
  if (priced && rows.length > 1) lines.push(`Total ≈ $${total.toFixed(4)}`);
  return `Cost of this launch:\n${lines.join("\n")}`;
}

/** /diff's answer: each changed file's diff in the transcript, or a line saying there is none. */
export function showSessionDiff(model: Model, diffs: { path: string; unified: string }[]): void {
  if (diffs.length === 0) {
    addEntry(model, {
      kind: "notice",
      level: "info",
      text: "No file changed by this session differs from how it was.",
    });
    return;
  }
  addEntry(model, {
    kind: "notice",
    level: "info",
    text: `This session changed ${diffs.length === 1 ? "1 file" : `${diffs.length} files`}:`,
  });
  for (const d of diffs) addEntry(model, { kind: "diff", path: d.path, unified: d.unified, depth: 0 });
}
