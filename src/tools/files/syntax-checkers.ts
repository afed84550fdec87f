// The language's own checker, where the machine has it: tree-sitter recovers from what CPython
// refuses (a dedent to no block's level, a `+` pasted before a line of a body), so a near-miss
// edit is also judged by python3, node, gofmt, ruby, php or bash. Each reads the text on stdin,
// runs with a short time limit, and is asked only for a near-miss edit (never on the exact path).
import { spawn } from "node:child_process";
import type { Grammar, ParseError } from "./syntax.js";

interface Checker {
  /** How the result names it. */
  name: string;
  cmd: string;
  args: (file: string, text: string) => string[];
  /** The error's line in what the checker printed. */
  line: RegExp;
}

const PY =
  "import ast,sys\ntry:\n ast.parse(sys.stdin.read())\nexcept SyntaxError as e:\n print('line', e.lineno or 1)\n sys.exit(1)";

const CHECKERS: Partial<Record<Grammar, Checker>> = {
  python: { name: "python3 (ast.parse)", cmd: "python3", args: () => ["-c", PY], line: /line (\d+)/ },
  javascript: {
    name: "node --check",
    cmd: process.execPath,
    // An ES module's import or export is a syntax error to CommonJS: the checker reads it as the file is.
    args: (file, text) => [
      `--input-type=${/\.mjs$/.test(file) || /^\s*(?:import|export)\b/m.test(text) ? "module" : "commonjs"}`,
      "--check",
    ],
    line: /\[stdin\]:(\d+)/,
  },
  go: { name: "gofmt -e", cmd: "gofmt", args: () => ["-e"], line: /:(\d+):\d+:/ },
  ruby: { name: "ruby -c", cmd: "ruby", args: () => ["-c"], line: /-:(\d+):/ },
  php: { name: "php -l", cmd: "php", args: () => ["-l"], line: /on line (\d+)/ },
  bash: { name: "bash -n", cmd: "bash", args: () => ["-n"], line: /line (\d+):/ },
};

const LIMIT_MS = 3000;

export interface CheckerVerdict {
  checker: string;
  /** null: the checker accepts the text. */
  error: ParseError | null;
}

/** The checker's verdict on `text`, or undefined when there is none here (or it did not answer in time). */
export async function checkWithLanguage(
  grammar: Grammar,
  file: string,
  text: string,
): Promise<CheckerVerdict | undefined> {
  const c = CHECKERS[grammar];
  if (!c) return undefined;
  const out = await run(c.cmd, c.args(file, text), text);
  if (!out) return undefined;
  if (out.code === 0) return { checker: c.name, error: null };
  const line = Number(c.line.exec(out.output)?.[1] ?? 0);
  if (!line) return undefined;
  return { checker: c.name, error: { line, text: text.split("\n")[line - 1] ?? "" } };
}

/** Runs a checker on stdin: its exit code and what it printed, or undefined if it could not say. */
function run(cmd: string, args: string[], input: string): Promise<{ code: number; output: string } | undefined> {
  return new Promise((resolve) => {
    let output = "";
    const child = spawn(cmd, args, {
      stdio: ["pipe", "pipe", "pipe"],
      env: { ...process.env, PYTHONDONTWRITEBYTECODE: "1" },
    });
    const timer = setTimeout(() => child.kill("SIGKILL"), LIMIT_MS);
    child.stdout.on("data", (d: Buffer) => (output += d.toString()));
    child.stderr.on("data", (d: Buffer) => (output += d.toString()));
    child.on("error", () => {
      clearTimeout(timer);
      resolve(undefined);
    });
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      resolve(signal || code === null ? undefined : { code, output });
    });
    child.stdin.on("error", () => undefined);
    child.stdin.end(input);
  });
}
