// One line of `agent0 doctor` (doctor.ts, doctor-engine.ts): a fact of this machine, and for a ✗ its cost and fix.
export interface Check {
  /** true ✓, false ✗, "info" a fact with nothing to fix. */
  ok: boolean | "info";
  what: string;
  detail: string;
  /** For a ✗: what it costs, and how to fix it. */
  cost?: string;
  fix?: string;
  /** The default path cannot work without it: `agent0 doctor` exits non-zero. */
  fatal?: boolean;
}
