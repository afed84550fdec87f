// Floor: the fastest blessed can put a frame on the screen (load it, one screen, one box).
import { appendFileSync } from "node:fs";
import { createRequire } from "node:module";

const require = createRequire(new URL("../../package.json", import.meta.url));
const blessed = require("blessed");
const screen = blessed.screen({ smartCSR: true, fullUnicode: true, terminal: "xterm-256color", warnings: false });
blessed.box({
  parent: screen,
  top: 0,
  left: 0,
  width: "100%",
  height: "100%",
  content: "agent0 floor\n\nbare blessed",
});
screen.render();
appendFileSync(process.env.AGENT0_BENCH_FILE, JSON.stringify({ event: "first-paint", at: performance.now() }) + "\n");
setTimeout(() => process.exit(0), 60_000);
