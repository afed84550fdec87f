import { describe, expect, it } from "vitest";
import { userMessage } from "../../src/protocol/user-message.js";
import type { ImageAttachment } from "../../src/protocol/conversation.js";

// The TUI (ui/update/run.ts) and a headless run (cli/print.ts) build the user's turn with this one
// rule; they had diverged on images (the TUI dropped them until the model was known).
const image: ImageAttachment = { mimeType: "image/png", data: "iVBORw0KGgo=" };

describe("the user's turn", () => {
  it("keeps what was typed only when it differs from what the model reads", () => {
    expect(userMessage({ content: "hi", typed: "hi" }, true, 0)).toEqual({ role: "user", content: "hi" });
    expect(userMessage({ content: "Expanded skill text", typed: "/skill x" }, true, 0)).toEqual({
      role: "user",
      content: "Expanded skill text",
      typed: "/skill x",
    });
  });

  it.each([
    [true, true],
    [undefined, true],
    [false, false],
  ])("images with seesImages %s: kept %s", (sees, kept) => {
    const m = userMessage({ content: "see [image]", images: [image] }, sees, 0);
    expect(m.images !== undefined).toBe(kept);
  });
});

describe("the time a user message was sent", () => {
  it("is kept when known (for /rewind's list) and left out when not", () => {
    expect(userMessage({ content: "hi" }, true, 1_795_000_000_000).sentAt).toBe(1_795_000_000_000);
    expect("sentAt" in userMessage({ content: "hi" }, true, 0)).toBe(false);
  });
});
