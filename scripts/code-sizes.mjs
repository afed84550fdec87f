// `node scripts/code-sizes.mjs [dir] [--files N] [--functions N]`: every file of `dir` (default
// src/) over N lines (300) and every function over N lines (80), longest first. A function's
// lines run from its first line to its last, nested functions included (as a reader meets them).
import fs from "node:fs";
import path from "node:path";
import ts from "typescript";

const args = process.argv.slice(2);
const flag = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};
const root = args.find((a, i) => !a.startsWith("--") && !args[i - 1]?.startsWith("--")) ?? "src";
const maxFile = flag("--files", 300);
const maxFunction = flag("--functions", 80);

const files = [];
const walk = (dir) => {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) walk(p);
    else if (/\.tsx?$/.test(e.name) && !e.name.endsWith(".d.ts")) files.push(p);
  }
};
walk(root);

const longFiles = [];
const longFunctions = [];
for (const file of files) {
  const text = fs.readFileSync(file, "utf8");
  const lines = text.split("\n").length - (text.endsWith("\n") ? 1 : 0);
  if (lines > maxFile) longFiles.push({ file, lines });
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const lineOf = (pos) => source.getLineAndCharacterOfPosition(pos).line;
  const visit = (node) => {
    if (ts.isFunctionLike(node) && "body" in node && node.body) {
      const span = lineOf(node.getEnd()) - lineOf(node.getStart(source)) + 1;
      if (span > maxFunction) longFunctions.push({ file, name: nameOf(node), line: lineOf(node.getStart()) + 1, span });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
}

function nameOf(node) {
  if (node.name) return node.name.getText();
  const parent = node.parent;
  if (parent && ts.isVariableDeclaration(parent)) return parent.name.getText();
  if (parent && ts.isPropertyAssignment(parent)) return parent.name.getText();
  return "(anonymous)";
}

longFiles.sort((a, b) => b.lines - a.lines);
longFunctions.sort((a, b) => b.span - a.span);
console.log(`files over ${maxFile} lines: ${longFiles.length}`);
for (const f of longFiles) console.log(`  ${String(f.lines).padStart(5)}  ${f.file}`);
console.log(`functions over ${maxFunction} lines: ${longFunctions.length}`);
for (const f of longFunctions) console.log(`  ${String(f.span).padStart(5)}  ${f.file}:${f.line} ${f.name}`);
