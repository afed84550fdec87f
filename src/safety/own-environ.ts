// agent0's own secrets out of its commands' reach. Any process of the same user can read another's
// starting environment: /proc/<pid>/environ, and `ps eww`, which reads it. What it shows is the
// block the process was started with, not what it holds now: setenv moves a variable to the heap
// and leaves the block as it was. So at start the secret variables are moved (process.env keeps
// them for the providers) and their values in the block are cleared through /proc/self/mem, which
// a process may write for itself. A command that reads /proc/$PPID/environ or agent0's pid then
// finds the names and no values, with bubblewrap's pid namespace or without it.
import fs from "node:fs";
import { isSecretVariable } from "./secrets.js";

/** Whether the starting environment still shows secrets to the user's other processes. */
export type OwnEnviron =
  { kind: "clean" } | { kind: "hidden"; names: string[] } | { kind: "exposed"; names: string[]; why: string };

/** Where the starting environment lies in this process's memory: /proc/self/stat fields 50 and 51 (proc(5)). */
function environBlock(): { start: number; end: number } {
  const stat = fs.readFileSync("/proc/self/stat", "latin1");
  // Fields after the command's closing parenthesis start at field 3.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const start = Number(fields[50 - 3]);
  const end = Number(fields[51 - 3]);
  if (!(start > 0 && end > start)) throw new Error("the kernel does not say where the environment is (Linux < 3.5)");
  return { start, end };
}

/**
 * Clears the values of secret variables in this process's starting environment (Linux), once, at
 * start and before any child runs. Returns what a command could still read.
 */
export function hideOwnSecrets(env: NodeJS.ProcessEnv = process.env): OwnEnviron {
  const names = Object.entries(env)
    .filter(([name, value]) => value !== undefined && value !== "" && isSecretVariable(name, value))
    .map(([name]) => name);
  if (names.length === 0) return { kind: "clean" };
  if (process.platform !== "linux")
    return { kind: "exposed", names, why: "only Linux lets a process clear its starting environment" };
  let fd: number | undefined;
  try {
    const { start, end } = environBlock();
    // The libc entry now points at a copy: the block's bytes are no longer read by anyone.
    for (const name of names) {
      const value = env[name]!;
      env[name] = value;
    }
    fd = fs.openSync("/proc/self/mem", "r+");
    const block = Buffer.alloc(end - start);
    fs.readSync(fd, block, 0, block.length, start);
    const wanted = new Set(names);
    let at = 0;
    while (at < block.length) {
      const stop = block.indexOf(0, at) < 0 ? block.length : block.indexOf(0, at);
      const eq = block.indexOf(0x3d, at);
      if (eq > at && eq < stop && wanted.has(block.toString("latin1", at, eq)) && stop > eq + 1) {
        block.fill(0, eq + 1, stop);
        fs.writeSync(fd, block, eq + 1, stop - eq - 1, start + eq + 1);
      }
      at = stop + 1;
    }
    const left = names.filter((name) => readsBack(name, env[name]!));
    if (left.length) return { kind: "exposed", names: left, why: "the kernel kept the values" };
    return { kind: "hidden", names };
  } catch (err) {
    return { kind: "exposed", names, why: (err as Error).message };
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

/** The value still shows in /proc/self/environ, as another process would read it. */
function readsBack(name: string, value: string): boolean {
  return `\0${fs.readFileSync("/proc/self/environ", "latin1")}`.includes(`\0${name}=${value}\0`);
}
