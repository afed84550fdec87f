// Floor: the fastest any node program can put a frame on the screen (raw mode, alternate
// screen, a few lines of text). agent0's first frame is measured against it.
import { appendFileSync } from "node:fs";

process.stdin.setRawMode?.(true);
process.stdout.write("\x1b[?1049h\x1b[H\x1b[2Jagent0 floor\r\n\r\nnode alone\x1b[24;1H> ");
appendFileSync(process.env.AGENT0_BENCH_FILE, JSON.stringify({ event: "first-paint", at: performance.now() }) + "\n");
setTimeout(() => process.exit(0), 60_000);
