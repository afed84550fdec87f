// Claude Code's PreCompact hook (code.claude.com/docs/en/hooks, "PreCompact"): its input carries
// `trigger`, "manual" from /compact and "auto" from an automatic compaction, and its matcher
// chooses by that trigger ("manual" or "auto"). An overflow refusal from the server (a llama.cpp
// sample from tests/providers/overflow.test.ts) compacts automatically: "auto", though it forces.
import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { compactIfNeeded } from "../../src/agent/compaction/run.js";
import { recoverFromOverflow } from "../../src/agent/overflow-retry.js";
import type { ConversationMessage } from "../../src/protocol/conversation.js";
import type { HooksConfig } from "../../src/protocol/hooks.js";
import { scriptedProvider } from "./scripted-provider.js";
import { tempProject, testConfig } from "../tools/ctx.js";

let cleanup = (): void => {};
afterEach(() => cleanup());

const history: ConversationMessage[] = Array.from({ length: 8 }, (_, i) => [
  { role: "user" as const, content: `question ${i}` },
  { role: "assistant" as const, content: `${i}: ${"word ".repeat(400)}` },
]).flat();

/** A project whose PreCompact hooks, one per matcher, write their stdin to `<matcher>.json`. */
function withHooks() {
  const project = tempProject({});
  cleanup = project.cleanup;
  const hook = (matcher: string) => ({
    matcher,
    source: "test",
    hooks: [{ type: "command" as const, command: `cat > ${path.join(project.dir, `${matcher}.json`)}` }],
  });
  const hooks: HooksConfig = { PreCompact: [hook("manual"), hook("auto")] };
  const config = { ...testConfig(project.dir), systemPrompt: "You are agent0.", numCtx: 4096, hooks };
  const seen = (matcher: string) => {
    const file = path.join(project.dir, `${matcher}.json`);
    return fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, "utf8")) as Record<string, unknown>) : undefined;
  };
  return { config, seen };
}

describe("the PreCompact hook's trigger", () => {
  it("/compact is manual", async () => {
    const { config, seen } = withHooks();
    const out = await compactIfNeeded(
      scriptedProvider([{ text: "summary" }]),
      history,
      config,
      new AbortController().signal,
      () => {},
      {
        trigger: "manual",
        force: true,
      },
    );
    expect(out).toBeDefined();
    expect(seen("manual")).toMatchObject({ hook_event_name: "PreCompact", trigger: "manual", custom_instructions: "" });
    expect(seen("auto")).toBeUndefined();
  });

  it("a server's overflow refusal compacts as auto", async () => {
    const { config, seen } = withHooks();
    const error = {
      kind: "server" as const,
      status: 400,
      message: "request (9120 tokens) exceeds the available context size (4096 tokens), try increasing it",
    };
    const provider = scriptedProvider([{ text: "summary" }]);
    const out = await recoverFromOverflow(error, provider, history, config, {}, new AbortController().signal, () => {});
    expect(out && "conversation" in out).toBe(true);
    expect(seen("auto")).toMatchObject({ hook_event_name: "PreCompact", trigger: "auto" });
    expect(seen("manual")).toBeUndefined();
  });
});
