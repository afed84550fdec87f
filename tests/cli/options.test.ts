// bin/agent0.js reads the command line without commander to paint the first frame before main
// loads; main then reads it with commander. The two readings must agree, or the boot frame shows
// another model or mode than the app: commander itself is the oracle here.
import { Command } from "commander";
import { addOptions } from "../../src/start/commander-options.js";
import { describe, expect, it } from "vitest";
import { OPTIONS, SUBCOMMANDS, placeOptionalFlags, readLaunch } from "../../src/start/options.js";

/** The command line as main.ts builds it, parsed by commander: options and words, or its error. */
function commanderReads(argv: string[]): { flags: Record<string, unknown>; words: string[] } | { error: string } {
  const program = new Command().exitOverride().configureOutput({ writeErr: () => {}, writeOut: () => {} });
  addOptions(program.argument("[prompt...]"));
  let words: string[] = [];
  program.action((w: string[]) => {
    words = w;
  });
  for (const name of SUBCOMMANDS) program.command(name).action(() => {});
  try {
    program.parse(placeOptionalFlags(argv), { from: "user" }); // as main.ts does
  } catch (err) {
    return { error: (err as Error).message };
  }
  const flags: Record<string, unknown> = { ...program.opts() };
  if (flags.outputFormat === "text") delete flags.outputFormat; // the default, not a flag typed
  return { flags, words };
}

const TUI_LINES: string[][] = [
  [],
  ["fix", "the", "failing", "test"],
  ["-m", "qwen3:8b"],
  ["--model", "anthropic/claude-sonnet-4-5"],
  ["--model=llama3.2", "--host=http://127.0.0.1:9"],
  ["-mqwen3:8b"],
  ["--permission-mode", "plan", "explain", "src"],
  ["--yolo", "--sandbox"],
  ["--think"],
  ["--think", "high"],
  ["--think=low", "fix", "it"],
  ["--think", "--yolo"],
  ["fix", "it", "--think"],
  // The prompt after a flag whose level may be left out is the prompt, not a level commander refuses.
  ["--think", "fix it"],
  ["--think", "fix", "it", "--yolo"],
  ["please", "--think", "fix", "--", "-p", "too"],
  ["-m", "--think", "fix"],
  ["--no-think"],
  ["--provider", "openai", "--base-url", "http://127.0.0.1:1/v1", "-m", "gpt"],
  ["-r", "3f2a"],
  ["--resume=3f2a"],
  ["-c"],
  ["--num-ctx-cap", "8192", "--keep-alive", "-1"],
  ["--keep-alive=10m", "--tick-ms", "50"],
  ["--trust-project-mcp", "hello"],
  ["--add-dir", "../lib", "--add-dir=/srv/shared", "hello"],
  ["explain", "-m", "qwen3:8b", "this"],
  ["--", "-p", "is", "a", "word", "here"],
  ["fix", "sessions"],
  ["-m", "-r"],
  ["-", "dash"],
];

describe("readLaunch", () => {
  it("takes a word after --think that is not a level as the prompt (it was refused as a level)", () => {
    expect(readLaunch(["--think", "fix it"])).toEqual({ kind: "tui", flags: { think: true }, words: ["fix it"] });
    expect(readLaunch(["--think", "high", "fix"])).toEqual({ kind: "tui", flags: { think: "high" }, words: ["fix"] });
    expect(commanderReads(["please", "--think", "fix", "it"])).toEqual({
      flags: { think: true },
      words: ["please", "fix", "it"],
    });
  });

  it.each(TUI_LINES)("reads %j as commander does", (...argv) => {
    const launch = readLaunch(argv);
    const oracle = commanderReads(argv);
    expect(oracle).not.toHaveProperty("error");
    expect(launch).toEqual({ kind: "tui", ...oracle });
  });

  // bin/agent0.js hands these to cli/headless.ts without main.ts: the flags must be commander's.
  it.each([
    ["-p", "hi"],
    ["--print", "hi"],
    ["--print=hi", "--output-format", "json"],
    ["-m", "qwen3:8b", "-p", "explain"],
    ["-phi"],
    ["-p", "hi", "--yolo", "--no-think", "--num-ctx-cap", "8192", "-r", "3f2a", "--trust-project-mcp"],
    ["--output-format=stream-json", "-p", "-starts with a dash", "--host", "http://127.0.0.1:9"],
    ["-p", "first", "-p", "second"],
    ["-p", "hi", "--add-dir", "../a", "--add-dir", "../b"],
  ])("reads the headless run %j as commander does", (...argv) => {
    const oracle = commanderReads(argv);
    if ("error" in oracle) throw new Error(oracle.error);
    expect(oracle.flags).toHaveProperty("print");
    expect(readLaunch(argv)).toEqual({ kind: "print", flags: { outputFormat: "text", ...oracle.flags } });
  });

  // Still headless (the agent starts early), but main.ts and commander read the line or report it.
  it.each([
    ["-p", "hi", "--bogus"],
    ["-p", "hi", "--output-format", "xml"],
    ["-p", "hi", "sessions"],
    ["-p", "hi", "-m"],
  ])("leaves the headless run %j to commander", (...argv) => {
    expect(readLaunch(argv)).toEqual({ kind: "print" });
  });

  // Not a TUI launch, or a line only commander can judge: no early frame; main reports errors.
  it.each([
    ["--help"],
    ["-h"],
    ["--version"],
    ["-v"],
    ["sessions"],
    ["mcp", "list"],
    ["-m", "x", "sessions"],
    ["--", "sessions"],
    ["--bogus"],
    ["-x"],
    ["--provider", "nope"],
    ["--permission-mode=sometimes"],
    ["-m"],
    ["--yolo=1"],
    ["-cr", "3f2a"],
  ])("leaves %j to commander", (...argv) => {
    expect(readLaunch(argv)).toEqual({ kind: "other" });
  });

  it("knows every option's syntax", () => {
    expect(OPTIONS.length).toBeGreaterThan(15);
    expect(() => readLaunch(["--model", "x"])).not.toThrow();
  });
});
