import type { SessionStats } from "./steer-types.js";

function tokens(n: number): string {
  return n >= 1000 ? `${(n / 1000).toFixed(n >= 10_000 ? 0 : 1)}k` : String(n);
}

function duration(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  return m < 60
    ? `${m}m ${String(s % 60).padStart(2, "0")}s`
    : `${Math.floor(m / 60)}h ${String(m % 60).padStart(2, "0")}m`;
}

/** The line printed on quit, under the resume line: what this launch did. */
export function exitSummary(stats: SessionStats, now: number): string {
  const turns = `${stats.turns} ${stats.turns === 1 ? "turn" : "turns"}`;
  const calls = `${stats.toolCalls} tool ${stats.toolCalls === 1 ? "call" : "calls"}`;
  return `${turns} · ${calls} · tokens ${tokens(stats.tokensIn)} in / ${tokens(stats.tokensOut)} out · ${duration(now - stats.startedAt)}`;
}
