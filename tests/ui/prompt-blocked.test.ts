// A prompt the agent refuses before the model sees it (a UserPromptSubmit hook's exit 2, or a
// prompt larger than the window: src/agent/run-window.ts) is not sent: it leaves the conversation
// and the transcript, and the user's words come back into the input box, whole.
import { describe, expect, it } from "vitest";
import { agent, feed, key, newModel, typeText } from "./helpers.js";

const WORDS = "please refactor the parser";

function blocked(source: "hook" | "window", typedSince = "") {
  const sent = feed(newModel(), ...typeText(WORDS), key("enter"), ...typeText(typedSince));
  expect(sent.model.entries.some((e) => e.kind === "user" && e.text === WORDS)).toBe(true);
  return feed(
    sent.model,
    agent({ type: "prompt-blocked", reason: "no", source }),
    agent({ type: "done", reason: "complete" }),
  ).model;
}

describe("a blocked prompt", () => {
  it.each(["hook", "window"] as const)("(%s) is back in the input box and nowhere else", (source) => {
    const m = blocked(source);
    expect(m.input.text).toBe(WORDS);
    expect(m.entries.filter((e) => e.kind === "user")).toEqual([]);
    expect(m.conversation.filter((c) => c.role === "user")).toEqual([]);
    expect(m.entries.at(-1)).toMatchObject({ kind: "error" });
  });

  it("comes back ahead of what the user typed since, which stays", () => {
    const m = blocked("window", "next thing");
    expect(m.input.text).toBe(`${WORDS}\n\nnext thing`);
  });
});
