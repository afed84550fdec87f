// A vitest reporter: after every run, each test file's time, slowest first, and the run's total.
// A file over SLOW_FILE_MS is marked: the suite keeps every file under it (CONTRIBUTING.md), so a
// file that grows slow is seen the day it does. Times are printed, never asserted.
import type { Reporter, TestModule } from "vitest/node";

const SLOW_FILE_MS = 10_000;

export default class FileTimes implements Reporter {
  private started = 0;

  onTestRunStart(): void {
    this.started = performance.now();
  }

  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const rows = modules
      .map((m) => {
        const d = m.diagnostic();
        // Import, set-up and the tests themselves: the file's own share of the run.
        const ms = d.environmentSetupDuration + d.prepareDuration + d.collectDuration + d.setupDuration + d.duration;
        return { file: m.relativeModuleId, ms, state: m.state() };
      })
      .sort((a, b) => b.ms - a.ms);
    if (rows.length === 0) return;
    const width = Math.max(...rows.map((r) => r.file.length));
    const lines = rows.map((r) =>
      `${(r.ms / 1000).toFixed(1).padStart(6)} s  ${r.file.padEnd(width)}${r.ms > SLOW_FILE_MS ? "  ← over 10 s" : ""}${r.state === "failed" ? "  (failed)" : ""}`.trimEnd(),
    );
    const sum = rows.reduce((s, r) => s + r.ms, 0);
    const wall = performance.now() - this.started;
    const slow = rows.filter((r) => r.ms > SLOW_FILE_MS).length;
    process.stdout.write(
      [
        "",
        `Test files by time (${rows.length} files, slowest first):`,
        ...lines,
        `${rows.length} files: ${(sum / 1000).toFixed(1)} s of file time in ${(wall / 1000).toFixed(1)} s; ` +
          `slowest ${(rows[0]!.ms / 1000).toFixed(1)} s (${rows[0]!.file})${slow ? `; ${slow} over 10 s` : ""}.`,
        "",
      ].join("\n"),
    );
  }
}
