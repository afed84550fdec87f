import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ensureModelInfo, saneTokenCount } from "../../src/agent/model-info.js";
import { loadConfig } from "../../src/context/config.js";
import type { RunEvent } from "../../src/protocol/agent-event.js";
import { testConfig } from "../tools/ctx.js";
import { scriptedProvider } from "./scripted-provider.js";

/** What a misbehaving server or a config typo may give for a token count. */
const BROKEN: unknown[] = [0, -5, 1.5, 1e12, "abc", null];

async function resolve(contextLength: unknown, numCtxCap: unknown = 32768) {
  const provider = scriptedProvider([]);
  provider.modelInfo = async (name) => ({ name, contextLength: contextLength as number, capabilities: ["tools"] });
  const config = { ...testConfig("/p"), model: "m", numCtx: 0, numCtxCap: numCtxCap as number };
  const events: RunEvent[] = [];
  const result = await ensureModelInfo(provider, config, new AbortController().signal, (e) => events.push(e));
  return { result, numCtx: result.ok ? result.config.numCtx : undefined, events };
}

describe("context length and num_ctx are sane numbers", () => {
  it("keeps a whole number of tokens", () => {
    expect(saneTokenCount(40960)).toBe(40960);
    expect(saneTokenCount(1)).toBe(1);
    for (const bad of BROKEN) expect(saneTokenCount(bad)).toBeUndefined();
  });

  it.each(BROKEN)("a server's context length of %j: the default with a notice, never sent as is", async (bad) => {
    const { result, numCtx, events } = await resolve(bad);
    expect(result.ok).toBe(true);
    expect(numCtx).toBe(8192);
    expect(events.find((e) => e.type === "model-info")).toMatchObject({ contextLength: 8192, numCtx: 8192 });
    const notices = events.filter((e) => e.type === "notice");
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatchObject({ level: "warn" });
    expect((notices[0] as { text: string }).text).toContain(`context length of ${JSON.stringify(bad)}`);
  });

  it("a server that tells no context length gets the default without a notice", async () => {
    const { numCtx, events } = await resolve(undefined);
    expect(numCtx).toBe(8192);
    expect(events.filter((e) => e.type === "notice")).toEqual([]);
  });

  it.each(BROKEN)("a numCtxCap of %j: the default cap with a notice", async (bad) => {
    const { numCtx, events } = await resolve(100_000, bad);
    expect(numCtx).toBe(32768);
    expect(events.some((e) => e.type === "notice" && e.text.startsWith(`numCtxCap ${JSON.stringify(bad)}`))).toBe(true);
  });

  it.each(BROKEN)("numCtxCap %j in the config file is reported and replaced by the default", (bad) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "agent0-cfg-"));
    try {
      const file = path.join(dir, "config.json");
      fs.writeFileSync(file, JSON.stringify({ numCtxCap: bad }));
      const { config, warnings } = loadConfig(file);
      expect(config.numCtxCap).toBe(32768);
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatch(/numCtxCap: .* — using the default$/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
