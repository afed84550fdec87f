// The options table (options.ts) as commander's options: one mapping, for main.ts and for the
// test that holds readLaunch to commander's reading.
import { Command, Option } from "commander";
import { OPTIONS } from "./options.js";

export function addOptions(program: Command): Command {
  for (const spec of OPTIONS) {
    const option = new Option(spec.flags, spec.description);
    if (spec.choices) option.choices(spec.choices);
    if (spec.default !== undefined) option.default(spec.default);
    if (spec.repeatable)
      option.argParser((value: string, earlier: string[] | undefined) => [...(earlier ?? []), value]);
    program.addOption(option);
  }
  return program;
}
