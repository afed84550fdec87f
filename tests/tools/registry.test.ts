import { runCall } from "./call.js";
import { afterEach, describe, expect, it, vi } from "vitest";
import * as z from "zod";
import { defineTool, type ToolDef } from "../../src/tools/types.js";
import { ABORT_GRACE_MS, summarize, toolSpecs, validateArgs } from "../../src/tools/runner.js";
import { runCalls } from "../../src/agent/tool-call.js";
import { truncateOutput } from "../../src/tools/output.js";
import { coreTools } from "../../src/tools/catalog.js";
import { makeCtx } from "./ctx.js";

const echo = defineTool({
  name: "echo",
  description: "Echo the text.",
  schema: z.object({ text: z.string().describe("What to echo."), times: z.number().int().optional() }),
  readOnly: true,
  concurrentSafe: true,
  label: (args) => `echo ${args.text}`,
  async run(args) {
    return { content: args.text.repeat(args.times ?? 1) };
  },
});

function probe(name: string, concurrentSafe: boolean, log: string[], ms = 20): ToolDef {
  return defineTool({
    name,
    description: name,
    schema: z.object({ n: z.number() }),
    readOnly: true,
    concurrentSafe,
    label: (args) => `${name} ${args.n}`,
    async run(args) {
      log.push(`start ${name}${args.n}`);
      await new Promise((r) => setTimeout(r, ms));
      log.push(`end ${name}${args.n}`);
      return { content: `${name}${args.n}` };
    },
  });
}

describe("toolSpecs", () => {
  it("gives each tool a plain JSON schema from its zod schema", () => {
    expect(toolSpecs([echo])).toEqual([
      {
        name: "echo",
        description: "Echo the text.",
        parameters: {
          type: "object",
          properties: {
            text: { type: "string", description: "What to echo." },
            times: { type: "integer", minimum: -9007199254740991, maximum: 9007199254740991 },
          },
          required: ["text"],
        },
      },
    ]);
  });

  it("names the eleven core tools", () => {
    expect(toolSpecs(coreTools).map((s) => s.name)).toEqual([
      "read_file",
      "list_files",
      "glob_files",
      "grep_files",
      "create_file",
      "write_file",
      "edit_file",
      "multi_edit",
      "run_shell_command",
      "shell_output",
      "kill_shell",
    ]);
    for (const spec of toolSpecs(coreTools)) {
      expect(spec.parameters).not.toHaveProperty("$schema");
      expect(spec.parameters.type).toBe("object");
    }
  });
});

describe("truncateOutput", () => {
  it("keeps text within the limit as it is", () => {
    expect(truncateOutput("abc", 3)).toBe("abc");
  });

  it("keeps the first half and last quarter of the limit around a count of what was cut", () => {
    const text = "a".repeat(50) + "b".repeat(100) + "c".repeat(25);
    expect(truncateOutput(text, 100)).toBe(`${"a".repeat(50)}\n[... 100 chars truncated ...]\n${"c".repeat(25)}`);
  });
});

describe("validateArgs", () => {
  it("names the field and what was expected", () => {
    expect(validateArgs(coreTools[0]!, { path: 42 })).toEqual({
      ok: false,
      error: "Invalid arguments for read_file: path: expected string, received number",
    });
    expect(validateArgs(coreTools[0]!, {})).toEqual({
      ok: false,
      error: "Invalid arguments for read_file: path: missing (expected string)",
    });
  });

  it("accepts arguments given as a JSON string, and null as left out", () => {
    expect(validateArgs(echo, '{"text":"hi","times":null}')).toEqual({ ok: true, args: { text: "hi" } });
    expect(validateArgs(echo, "{nope")).toEqual({
      ok: false,
      error: "Invalid arguments for echo: not valid JSON: {nope",
    });
    expect(validateArgs(echo, "[1]")).toEqual({
      ok: false,
      error: "Invalid arguments for echo: expected a JSON object, got an array",
    });
  });
});

describe("runToolCall", () => {
  it("tells the model the available tools when it calls an unknown one", async () => {
    const ctx = makeCtx("/tmp");
    const result = await runCall({ id: "c1", name: "write_file", args: { path: "x" } }, [echo], ctx);
    expect(result).toEqual({ content: 'Error: unknown tool "write_file". Available tools: echo.', isError: true });
    expect(ctx.events).toEqual([
      { type: "tool-start", id: "c1", name: "write_file", args: { path: "x" }, label: "write_file" },
      {
        type: "tool-end",
        id: "c1",
        display: expect.objectContaining({
          ok: false,
          summary: 'Error: unknown tool "write_file". Available tools: echo.',
        }),
      },
    ]);
  });

  it("turns invalid arguments into an error result without running the tool", async () => {
    const ctx = makeCtx("/tmp");
    const result = await runCall({ id: "c1", name: "echo", args: { text: 5 } }, [echo], ctx);
    expect(result).toEqual({
      content: "Invalid arguments for echo: text: expected string, received number",
      isError: true,
    });
  });

  it("runs a call whose arguments came as a JSON string, showing them parsed", async () => {
    const ctx = makeCtx("/tmp");
    const args = '{"text":"hi"}' as unknown as Record<string, unknown>;
    expect(await runCall({ id: "c1", name: "echo", args }, [echo], ctx)).toEqual({ content: "hi" });
    expect(ctx.events[0]).toEqual({
      type: "tool-start",
      id: "c1",
      name: "echo",
      args: { text: "hi" },
      label: "echo hi",
    });
  });

  it("turns an exception into an error result", async () => {
    const boom = defineTool({ ...echo, name: "boom", run: async () => Promise.reject(new Error("disk on fire")) });
    const ctx = makeCtx("/tmp");
    expect(await runCall({ id: "c1", name: "boom", args: { text: "x" } }, [boom], ctx)).toEqual({
      content: "Error: disk on fire",
      isError: true,
    });
    expect(ctx.events.at(-1)).toEqual({
      type: "tool-end",
      id: "c1",
      display: expect.objectContaining({ ok: false, summary: "Error: disk on fire" }),
    });
  });

  it("truncates output to the configured limit", async () => {
    const ctx = makeCtx("/tmp", { outputLimit: 40 });
    const result = await runCall({ id: "c1", name: "echo", args: { text: "0123456789", times: 10 } }, [echo], ctx);
    expect(result.content).toBe(`01234567890123456789\n[... 70 chars truncated ...]\n0123456789`);
  });

  it("masks secrets from the environment", async () => {
    process.env.AGENT0_REGISTRY_TOKEN = "tok-abcdef";
    try {
      const ctx = makeCtx("/tmp");
      const result = await runCall({ id: "c1", name: "echo", args: { text: "x tok-abcdef y" } }, [echo], ctx);
      expect(result.content).toBe("x **** y");
    } finally {
      delete process.env.AGENT0_REGISTRY_TOKEN;
    }
  });

  describe("the grace period after an interrupt (on a fake clock)", () => {
    afterEach(() => vi.useRealTimers());

    /** A call of `tool`, interrupted at once; `settled` says whether it has ended yet. */
    function interrupted(tool: ToolDef) {
      const ctx = makeCtx("/tmp");
      let settled = false;
      const running = runCall({ id: "c1", name: tool.name, args: { text: "x" } }, [tool], ctx).finally(
        () => (settled = true),
      );
      ctx.controller.abort();
      return { running, settled: () => settled };
    }

    it("a tool that ignores the interrupt is ended when the grace period is over, not before", async () => {
      vi.useFakeTimers();
      const stubborn = defineTool({ ...echo, name: "stubborn", run: () => new Promise<never>(() => {}) });
      const call = interrupted(stubborn);
      await vi.advanceTimersByTimeAsync(ABORT_GRACE_MS - 1);
      expect(call.settled()).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      expect(await call.running).toEqual({ content: "Error: interrupted by the user.", isError: true });
    });

    it("a tool that answers the interrupt within the grace period has its own result kept", async () => {
      vi.useFakeTimers();
      // What a shell command does: it stops its child and returns the output so far.
      const polite = defineTool({
        ...echo,
        name: "polite",
        run: (_args, ctx) =>
          new Promise((resolve) => {
            const stop = () => setTimeout(() => resolve({ content: "partial output [stopped]" }), ABORT_GRACE_MS - 100);
            if (ctx.signal.aborted) stop();
            else ctx.signal.addEventListener("abort", stop, { once: true });
          }),
      });
      const call = interrupted(polite);
      await vi.advanceTimersByTimeAsync(ABORT_GRACE_MS);
      expect(await call.running).toMatchObject({ content: "partial output [stopped]" });
    });
  });
});

describe("summarize", () => {
  it("derives a one-liner when the tool gives none", () => {
    expect(summarize({ content: "Error: bad\nmore", isError: true })).toBe("Error: bad");
    expect(summarize({ content: "x", diff: "--- a\n+++ a\n@@ -1 +1,2 @@\n-a\n+b\n+c\n" })).toBe("+2 -1");
    expect(summarize({ content: "a\nb\nc\n" })).toBe("3 lines");
    expect(summarize({ content: "short answer" })).toBe("short answer");
    expect(summarize({ content: "x", summary: "exit 0 · 1 line" })).toBe("exit 0 · 1 line");
  });
});

/** A step's calls through the pipeline with nothing but the tools deciding (ask mode, no rules). */
const runToolCalls = (
  ...[calls, tools, makeCtx]: [Parameters<typeof runCalls>[0], ToolDef[], Parameters<typeof runCalls>[2]]
) => runCalls(calls, { tools, config: makeCtx(calls[0]!).config, mode: "ask", stop: () => {} }, makeCtx);

describe("runCalls", () => {
  it("runs consecutive concurrent-safe calls together and the others alone, results in call order", async () => {
    const log: string[] = [];
    const tools = [probe("r", true, log), probe("w", false, log)];
    const calls = [
      { id: "1", name: "r", args: { n: 1 } },
      { id: "2", name: "r", args: { n: 2 } },
      { id: "3", name: "w", args: { n: 3 } },
      { id: "4", name: "r", args: { n: 4 } },
    ];
    const results = await runToolCalls(calls, tools, () => makeCtx("/tmp"));
    expect(results.map((r) => r.content)).toEqual(["r1", "r2", "w3", "r4"]);
    expect(log).toEqual(["start r1", "start r2", "end r1", "end r2", "start w3", "end w3", "start r4", "end r4"]);
  });

  it("does not start calls after an interrupt", async () => {
    const log: string[] = [];
    const tools = [probe("w", false, log)];
    const controller = new AbortController();
    const calls = [1, 2, 3].map((n) => ({ id: String(n), name: "w", args: { n } }));
    const results = await runToolCalls(calls, tools, (call) => {
      const ctx = makeCtx("/tmp");
      if (call.id === "1") setTimeout(() => controller.abort(), 5);
      return { ...ctx, signal: controller.signal };
    });
    expect(results.map((r) => r.content)).toEqual([
      "w1",
      "Error: interrupted by the user before this tool ran.",
      "Error: interrupted by the user before this tool ran.",
    ]);
    expect(log).toEqual(["start w1", "end w1"]);
  });
});
