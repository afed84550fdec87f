// A window no server reported (RunConfig.windowUnknown: an OpenAI-compatible server that says
// nothing of it) is not shown as the 8,192 placeholder the config carries until a reply's counts
// or an overflow error tell it: the status line gives the tokens in context, /context says why.
import { describe, expect, it } from "vitest";
import { view } from "../../src/ui/view/index.js";
import { contextReport } from "../../src/ui/layout/context.js";
import { newModel, strip, testConfig } from "./helpers.js";

function withUsage(windowUnknown: boolean) {
  const model = newModel({ width: 120 });
  return {
    ...model,
    config: testConfig({ provider: "openai", numCtx: 8192, ...(windowUnknown ? { windowUnknown: true } : {}) }),
    usage: { ...model.usage, promptTokens: 1500, completionTokens: 100 },
  };
}

describe("a window the server did not report", () => {
  it("is not on the status line as a figure; the tokens in context are", () => {
    const status = strip(view(withUsage(true)).status);
    expect(status).toContain("1.6k in context");
    expect(status).not.toMatch(/of 8\.2k/);
  });

  it("a reported window still is", () => {
    expect(strip(view(withUsage(false)).status)).toMatch(/1\.6k of 8\.2k \(20%\)/);
  });

  it("/context says the server did not report it", () => {
    const report = contextReport(withUsage(true));
    expect(report).toMatch(/^Context window: not reported by the server/);
    expect(report).not.toContain("8,192");
  });
});
