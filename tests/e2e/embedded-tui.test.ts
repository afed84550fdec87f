// Issue 41, check 1, in a real terminal: `agent0 --provider embedded --model <tiny.gguf>` runs the real
// engine (CPU, offline) on the tests' tiny random-weights model (tests/fakes/tiny-gguf.ts). Its plain
// ChatML template renders no tools, so every step is agent0's JSON protocol under the engine's grammar:
// each reply is certain to be a call (the constraint, not a seed, makes it one — the prompt holds the
// temp folder's random name, so no seed picks the same tool twice). The first call that runs sends its
// result back; a later reply streams into the transcript and Esc stops it; the status line and
// /context show the window the engine made and the engine's own token counts; a second turn
// evaluates only its new tokens. A small window's tools leave list_files out (tools/small-window.ts):
// the call is one of the four file tools it has; the shell is refused by a deny rule, unasked.
import path from "node:path";
import { describe, expect, it } from "vitest";
import { writeTinyGguf } from "../fakes/tiny-gguf.js";
import { eachTest, loggedEvents, Tui, waitUntil, type Sandbox } from "./harness.js";
import { engineEnv } from "./engine-env.js";

/** Not 8,192 (the figure used when a server says nothing): the window shown must be the engine's. */
const WINDOW = 8000;

type Logged = ReturnType<typeof loggedEvents>[number];

describe("the embedded engine in the TUI", () => {
  let sb: Sandbox;
  let tui: Tui | undefined;
  eachTest(
    (s) => (sb = s),
    () => [tui],
  );

  const events = (type: string): Logged[] => loggedEvents(sb).filter((e) => e.type === type);
  async function nextEvent(type: string, after: number, what: string): Promise<Logged> {
    await waitUntil(() => events(type).length > after, 30_000, what).catch((err: Error) => {
      throw new Error(
        `${err.message}; the log: ${loggedEvents(sb)
          .map((e) => e.type)
          .join(" ")}; the screen:\n${tui?.screen()}`,
      );
    });
    return events(type)[after]!;
  }

  it("streams, runs the model's call, stops on Esc, shows the engine's window and counts, and reuses the prefix", async () => {
    const model = path.join(sb.home, "tiny.gguf");
    writeTinyGguf(model, { contextLength: WINDOW });
    Object.assign(sb.env, {
      ...engineEnv(),
      AGENT0_ENGINE_SEED: "8",
      // Room for a whole call: a random model closes a string by chance (about one token in 250), and
      // a reply cut by its bound is no JSON at all (300 left one run in five unusable).
      AGENT0_ENGINE_MAX_TOKENS: "2000",
    });
    // The model's calls are random: edits run (inside the temp project), the shell is refused unasked.
    const args = ["--provider", "embedded", "--model", model, "--permission-mode", "auto-edit"];
    tui = await Tui.open(sb, [...args, "--disallowedTools", "Bash"], { width: 120, height: 50 });
    const t = tui;

    // The grammar allows a call to one of the tools or the final answer: a random model takes the
    // answer now and then. A turn that ends so is asked again (the conversation, so the prompt, differs
    // each time) until one runs a call and its next reply streams another; at most five turns.
    // The call's line, ended (✓ or ✗), then a new reply's block, and the status line naming the call it
    // writes: a frame from before the call ran has no ended line above its block.
    const streamingCall = /^[✓✗] .*\n(?:.*\n)*?^✻ .*\n(?:.*\n)*^.*writing an? \w+ call/m;
    let result: Logged | undefined;
    let streaming = "";
    for (let turn = 0; turn < 5 && !streaming; turn++) {
      const [ended, ran] = [events("done").length, events("tool-end").length];
      t.send(turn === 0 ? "what files are here?" : "and now?");
      await waitUntil(
        () => events("done").length > ended || (events("tool-end").length > ran && streamingCall.test(t.screen())),
        30_000,
        "a call that runs and a reply streaming the next, or the turn's end",
      ).catch((err: Error) => {
        throw new Error(
          `${err.message}; the log: ${loggedEvents(sb)
            .map((e) => e.type)
            .join(" ")}; the screen:\n${t.screen()}`,
        );
      });
      if (events("done").length > ended) continue;
      result = events("tool-end")[ran]!;
      streaming = t.screen();
    }
    expect(streaming, "five turns, each ended in an answer").not.toBe("");
    const turnsBefore = events("done").length;
    const call = events("tool-start").find((e) => e.id === result!.id)!;
    expect(["read_file", "grep_files", "edit_file", "write_file"]).toContain(call.name);
    // The call's result went back to the model in the conversation.
    expect(events("message").some((e) => (e.message as { toolCallId?: string }).toolCallId === call.id)).toBe(true);
    const first = events("usage")[0]!;
    expect(first.contextWindow).toBe(WINDOW);

    // A later reply streams into the transcript (its call's name is written, its arguments still
    // coming): Esc stops it.
    const pressed = Date.now();
    t.press("Escape");
    // The answer is marked at the key; the status line goes idle once the agent has stopped.
    const stoppedScreen = await t.waitFor((s) => s.includes("⏹ interrupted") && /^idle · /m.test(s), 10_000);
    const stopMs = Date.now() - pressed;
    const done = await nextEvent("done", turnsBefore, "the turn to end");
    expect(done.reason).toBe("interrupted");
    const agentMs = Date.parse(String(done.at)) - pressed;
    console.log(`Esc to the agent's stop: ${agentMs} ms; to "interrupted" and idle on screen: ${stopMs} ms`);
    expect(streaming).toMatch(/^✻ \{/m);
    const usageAtStop = events("usage").length;

    // The status line: the window the engine made (8.0k of the file's 8,000, not the 8.2k guess).
    expect(stoppedScreen).toMatch(/^idle · .* of 8\.0k/m);

    // A second turn: only its new tokens are evaluated (the engine's count).
    const secondSent = Date.now();
    t.send("and in src?");
    const second = await nextEvent("usage", usageAtStop, "the engine's counts for the second turn");
    // Nothing came of the stopped reply between its stop and the next turn: no counts, no call.
    const between = loggedEvents(sb).filter((e) => {
      const at = Date.parse(String(e.at));
      return at > Date.parse(String(done.at)) && at < secondSent;
    });
    expect(between.filter((e) => e.type === "usage" || e.type === "tool-start")).toEqual([]);
    const prompt = second.promptTokens as number;
    const cached = second.cachedTokens as number;
    // At least the first request's prompt came from the kept sequence (a call goes back in the
    // engine's own call syntax, so the prefix shared ends where the first reply began).
    expect(cached).toBeGreaterThanOrEqual(first.promptTokens as number);
    // Evaluated: the stopped reply as the conversation keeps it (as long as the random model wrote
    // before Esc: 170 to 580 tokens seen), the new message and its frame — against the ~4,000 tokens
    // a cold request reads. The bound is the one above: nothing of the first request read again.
    console.log(`second turn: ${prompt} prompt tokens, ${cached} from the kept sequence, ${prompt - cached} evaluated`);
    t.press("Escape");
    await nextEvent("done", turnsBefore + 1, "the next turn to end");

    // /context: the engine's window and the engine's counts of the last request.
    t.send("/context");
    const context = await t.waitFor(/Context window: 8,000 tokens/);
    expect(context).toContain(
      `the last request read ${cached.toLocaleString("en-US")} of its ${prompt.toLocaleString("en-US")} prompt tokens`,
    );
  }, 120_000);
});
