import { readFileSync } from "node:fs";

/** The package's own package.json version (this code runs from dist/, dist/cli/ or dist/bundle/). */
export function packageVersion(): string {
  for (const rel of ["../package.json", "../../package.json"]) {
    try {
      const pkg = JSON.parse(readFileSync(new URL(rel, import.meta.url), "utf8")) as {
        name?: string;
        version?: string;
      };
      if (pkg.name === "agent0" && pkg.version) return pkg.version;
    } catch {
      // not at this level
    }
  }
  return "unknown";
}
