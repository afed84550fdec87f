// agent0's ACP registry entry (registry/agent0/) checked as the registry's CI checks a pull request:
// agent.json against the registry's own agent.schema.json (vendored, see tests/fixtures/acp-registry/
// SOURCE.md), the folder named after the id, and an icon drawn only in currentColor
// (agentclientprotocol/registry CONTRIBUTING.md: "Icons with hardcoded colors … will fail validation").
// A copy of an entry from that repository (acp-bridge/agent.json, trimmed) shows the validator
// accepts what the registry accepts, and a broken entry shows it can refuse.
import fs from "node:fs";
import path from "node:path";
import { Ajv } from "ajv";
import addFormats from "ajv-formats";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "..", "..");
const schema = JSON.parse(
  fs.readFileSync(path.join(ROOT, "tests", "fixtures", "acp-registry", "agent.schema.json"), "utf8"),
) as object;
const entryDir = path.join(ROOT, "registry", "agent0");
const entry = JSON.parse(fs.readFileSync(path.join(entryDir, "agent.json"), "utf8")) as Record<string, unknown>;

function validate(value: unknown): string[] {
  const ajv = new Ajv({ allErrors: true });
  addFormats.default(ajv);
  const check = ajv.compile(schema);
  return check(value) ? [] : (check.errors ?? []).map((e) => `${e.instancePath} ${e.message ?? ""}`);
}

describe("the ACP registry entry", () => {
  it("validates against the registry's schema", () => {
    expect(validate(entry)).toEqual([]);
  });

  it("sits in a folder named after its id, at package.json's version, launching `agent0 acp`", () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")) as { version: string };
    expect(path.basename(entryDir)).toBe(entry.id);
    expect(entry.version).toBe(pkg.version);
    expect(entry.distribution).toEqual({ npx: { package: `agent0@${pkg.version}`, args: ["acp"] } });
  });

  // The registry shows where the source is and under what licence (agent.schema.json: `repository`, a URI;
  // `license`, an SPDX identifier); the entry takes both from package.json, so the two never disagree.
  it("names its repository and licence, as package.json does", () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")) as {
      license?: string;
      repository?: { url?: string };
    };
    expect(entry.license).toBe(pkg.license);
    expect(entry.license).toMatch(/^[A-Za-z0-9.+-]+$/);
    expect(pkg.repository?.url).toBe(`git+${String(entry.repository)}.git`);
    expect(String(entry.repository)).toMatch(/^https:\/\/github\.com\/[\w.-]+\/[\w.-]+$/);
    expect(fs.existsSync(path.join(ROOT, "LICENSE"))).toBe(true);
  });

  it("has a 16x16 icon in currentColor only", () => {
    const svg = fs.readFileSync(path.join(entryDir, "icon.svg"), "utf8");
    expect(svg).toMatch(/width="16" height="16"/);
    const colours = [...svg.matchAll(/(?:fill|stroke)="([^"]*)"/g)].map((m) => m[1]);
    expect(colours.length).toBeGreaterThan(0);
    for (const c of colours) expect(["currentColor", "none"]).toContain(c);
  });

  it("accepts a listed agent's entry and refuses a broken one", () => {
    // agentclientprotocol/registry acp-bridge/agent.json (one platform kept).
    const listed = {
      id: "acp-bridge",
      name: "ACP Bridge",
      version: "0.7.0",
      description: "ACP/A2A adapter for self-hosted AI",
      repository: "https://github.com/BlakeHung/acp-bridge",
      authors: ["WCHungBlake <mars7823482@gmail.com>"],
      license: "MIT",
      distribution: {
        binary: {
          "linux-x86_64": {
            archive: "https://github.com/BlakeHung/acp-bridge/releases/download/v0.7.0/acp-bridge-linux-amd64",
            cmd: "./acp-bridge-linux-amd64",
          },
        },
      },
    };
    expect(validate(listed)).toEqual([]);
    const broken = { ...entry, id: "Agent0", distribution: { brew: { package: "agent0" } } };
    expect(validate(broken).join("\n")).toMatch(/\/id must match pattern[\s\S]*additional properties/);
  });
});
