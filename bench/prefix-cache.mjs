// The prompt cache over a scripted 30-turn TUI session (issue 25): a fake Ollama that simulates a
// server's prefix cache (tests/fakes/prefix-cache.ts: the longest common prefix of the previous
// prompt is reused, every other token costs `msPerToken` of prefill before the first byte). The
// session reads files, answers, is compacted once, quits and is resumed with --continue. Per turn:
// the tokens the server had to prefill and the simulated time to first token. Per request: how
// much of the previous prompt was reused; a request reusing less than 95 % of it is a cache break.
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { startFakeOllama } from "../.bench-build/fakes/ollama-server.js";
import { BIN, Tui, sandbox, sleep } from "./tui.mjs";

const MODEL = { name: "qwen3:8b", contextLength: 16384 };
const TURNS = 30;
/** Turns that read a file (the session grows to one compaction near turn 20). */
const READS = (n) => n <= 12;
const RESUME_AFTER = 24;
const SUMMARY = "Summary: the user had the agent read the files f1.txt onward, one per turn, and explain each.";

const isSummaryRequest = (chat) =>
  chat.messages.some(
    (m) => m.content.includes("Write a summary") || m.content.startsWith("Summarize the conversation"),
  );
const turnOf = (chat) => {
  for (let i = chat.messages.length - 1; i >= 0; i--) {
    const m = /^turn (\d+):/.exec(chat.messages[i].content);
    if (chat.messages[i].role === "user" && m) return Number(m[1]);
  }
  return 0;
};

function reply(chat) {
  if (isSummaryRequest(chat)) return { steps: [{ text: SUMMARY }], evalCount: 40 };
  const n = turnOf(chat);
  const last = chat.messages.at(-1);
  if (last.role === "user" && READS(n) && last.content.startsWith(`turn ${n}:`))
    return { steps: [{ toolCalls: [{ name: "read_file", arguments: { path: `f${n}.txt` } }] }], evalCount: 20 };
  return {
    steps: [{ text: `answer ${n}: ${"the file explains one more part of the design. ".repeat(3)}` }],
    evalCount: 60,
  };
}

function screen(tui) {
  return tui.tmux("capture-pane", "-p", "-t", "b");
}

async function waitScreen(tui, text, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (screen(tui).includes(text)) return;
    await sleep(50);
  }
  throw new Error(`prefix-cache bench: no "${text}" on screen within ${timeoutMs} ms`);
}

/** bin: the app to drive (another checkout's bin/agent0.js measures the code before a change). */
export async function benchPrefixCache({ bin = BIN, msPerToken = 2 } = {}) {
  const fake = await startFakeOllama({ models: [MODEL], prefixCache: { msPerToken }, replies: reply });
  const sb = sandbox();
  for (let n = 1; n <= TURNS; n++)
    fs.writeFileSync(
      path.join(sb.project, `f${n}.txt`),
      Array.from({ length: 60 }, (_, i) => `f${n} line ${i}: some code of the project, with a comment.`).join("\n"),
    );
  const args = ["--host", fake.url, "--model", MODEL.name, "--yolo"];
  let tui = new Tui(sb, args, { bin, width: 120, height: 40 });
  const resumedAt = [];
  try {
    await waitScreen(tui, "Ask anything");
    for (let n = 1; n <= TURNS; n++) {
      if (n === RESUME_AFTER + 1) {
        tui.keys("C-d");
        await waitScreen(tui, "resume with");
        tui.kill();
        resumedAt.push(fake.chats.length);
        tui = new Tui(sb, [...args, "--continue"], { bin, width: 120, height: 40 });
        await waitScreen(tui, "Ask anything");
      }
      tui.type(`turn ${n}: ${READS(n) ? `read f${n}.txt and explain it` : "and what follows from that?"}`);
      tui.keys("Enter");
      await waitScreen(tui, `answer ${n}:`);
    }
  } finally {
    tui.kill();
    await fake.close();
    sb.cleanup();
  }
  return summarize(fake.chats, resumedAt);
}

function summarize(chats, resumedAt) {
  const perTurn = new Map();
  const requests = chats.map((chat, i) => {
    const prev = chats[i - 1];
    const reuse = prev ? chat.cache.cached / prev.cache.total : 1;
    return {
      turn: turnOf(chat),
      summary: isSummaryRequest(chat),
      afterSummary: !!prev && isSummaryRequest(prev),
      resumed: resumedAt.includes(i),
      reuse,
      ...chat.cache,
    };
  });
  for (const r of requests) {
    const t = perTurn.get(r.turn) ?? {
      turn: r.turn,
      prefilled: 0,
      ttftMs: 0,
      answered: false,
      compacted: false,
      resumed: false,
    };
    t.prefilled += r.total - r.cached;
    // The first token the user sees: the summary requests before it are waited for too.
    if (!t.answered) t.ttftMs += r.prefillMs;
    t.answered ||= !r.summary;
    t.compacted ||= r.summary;
    t.resumed ||= r.resumed;
    perTurn.set(r.turn, t);
  }
  const breaks = requests.filter((r, i) => i > 0 && r.reuse < 0.95);
  const compactions = requests.filter((r) => r.summary).length;
  const compactionBreaks = breaks.filter((r) => r.summary || r.afterSummary).length;
  const outside = requests.filter((r, i) => i > 0 && !r.summary && !r.afterSummary);
  return {
    turns: [...perTurn.values()].sort((a, b) => a.turn - b.turn),
    requests: requests.length,
    compactions,
    breaksPerCompaction: compactions ? compactionBreaks / compactions : compactionBreaks,
    otherBreaks: breaks.length - compactionBreaks,
    minReuseOutside: Math.min(...outside.map((r) => r.reuse)),
    resumeReuse: requests.filter((r) => r.resumed).map((r) => r.reuse),
    reloads: requests.filter((r) => r.reloaded).length,
    prefilledTotal: requests.reduce((t, r) => t + r.total - r.cached, 0),
  };
}

export function printPrefixCache(r, write = (s) => process.stderr.write(s)) {
  write("  turn  prefilled  TTFT (simulated)\n");
  for (const t of r.turns)
    write(
      `  ${String(t.turn).padStart(4)}  ${String(t.prefilled).padStart(9)}  ${`${t.ttftMs} ms`.padStart(9)}${t.compacted ? "  compaction" : ""}${t.resumed ? "  resumed" : ""}\n`,
    );
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const binArg = process.argv.indexOf("--bin");
  const r = await benchPrefixCache(binArg > 0 ? { bin: path.resolve(process.argv[binArg + 1]) } : {});
  printPrefixCache(r, (s) => process.stdout.write(s));
  const { turns: _t, ...figures } = r;
  console.log(JSON.stringify(figures, null, 2));
  process.exit(0);
}
