// Issue 26, "right under the fingers": keys go where the focus is, the picker opens on what is in
// use, queued messages are visible, pastes are counted right. The terminal side of each is in
// tests/e2e/under-the-fingers.test.ts.
import { describe, expect, it } from "vitest";
import { view } from "../../src/ui/view/index.js";
import { createInputDecoder } from "../../src/ui/keys.js";
import { modelDetail } from "../../src/cli/services.js";
import { fitStatus, STATUS_PRIORITY, type StatusSegment } from "../../src/ui/view/status.js";
import { makeUnifiedDiff } from "../../src/render/diff.js";
import type { Msg } from "../../src/ui/msg.js";
import { agent, feed, key, newModel, strip, typeText } from "./helpers.js";

const MODELS = ["gemma3:4b", "llama3.2:3b", "qwen3:8b", "qwen3:14b"].map((name) => ({
  value: name,
  label: name,
  detail: "x",
}));
const picker = (model = newModel()) => feed(model, { type: "picker-items", purpose: "model", items: MODELS });

/** What the decoder makes of three Down arrows written at once (a slow link, key repeat under load). */
const threeDownsInOneRead = (): Msg[] => createInputDecoder()("\x1b[B\x1b[B\x1b[B");

describe("keys go where the focus is", () => {
  it("three arrows in one read are one wheel Msg of three lines", () => {
    expect(threeDownsInOneRead()).toEqual([{ type: "wheel", direction: "down", lines: 3 }]);
  });

  it("with the model picker open they move it three rows, and the transcript stays", () => {
    const opened = picker().model;
    const at = opened.dialog?.kind === "picker" ? opened.dialog.selected : -1;
    const moved = feed(opened, ...threeDownsInOneRead()).model;
    expect(moved.dialog?.kind === "picker" && moved.dialog.selected).toBe((at + 3) % MODELS.length);
    expect(moved.anchor).toBeNull();
  });

  it("with the slash menu open they move its selection three rows", () => {
    const typed = feed(newModel(), ...typeText("/")).model;
    expect(typed.menu?.selected).toBe(0);
    expect(feed(typed, ...threeDownsInOneRead()).model.menu?.selected).toBe(3);
  });

  it("with nothing open they still scroll the transcript (the terminal's alternate-scroll wheel)", () => {
    const long = Array.from({ length: 80 }, (_, i) => `line ${i}`).join("\n\n");
    const answered = feed(newModel(), ...typeText("hi"), key("enter"), agent({ type: "text", delta: long })).model;
    const scrolled = feed(answered, { type: "wheel", direction: "up", lines: 3 }).model;
    expect(scrolled.anchor).not.toBeNull();
  });
});

describe("the model picker", () => {
  it("opens on the current model, marked; Enter on it changes nothing", () => {
    const { model } = picker();
    expect(model.dialog?.kind === "picker" && model.dialog.items[model.dialog.selected]?.value).toBe("qwen3:8b");
    const lines = (view(model).dialog?.lines ?? []).map(strip);
    expect(lines.find((l) => l.includes("qwen3:8b"))).toMatch(/› qwen3:8b\s+● current/);
    expect(lines.join("\n")).toContain("↑↓ choose · Enter use · s use and save as default · Esc close");
    const entered = feed(model, key("enter"));
    expect(entered.model.dialog).toBeNull();
    expect(entered.cmds).toEqual([]);
    expect(entered.model.config.model).toBe("qwen3:8b");
    // Another model is a change: probed and recorded.
    const other = feed(model, key("up"), key("enter"));
    expect(other.model.config.model).toBe("llama3.2:3b");
    expect(other.cmds.map((c) => c.type)).toEqual(["worker", "session-meta"]);
  });

  it("each model shows its size, context length, tool calls, thinking and vision", () => {
    // Capabilities as Ollama's /api/show reports them (qwen3: thinking; gemma3: vision).
    expect(
      modelDetail({ size: 5.2e9, contextLength: 40960, capabilities: ["completion", "tools", "thinking"] }, "ollama"),
    ).toBe("5.2 GB · ctx 40960 · tools: native + text recovery · thinking");
    expect(modelDetail({ size: 3.3e9, contextLength: 131072, capabilities: ["completion", "vision"] }, "ollama")).toBe(
      "3.3 GB · ctx 131072 · tools: JSON reply protocol · vision",
    );
  });

  it("an Ollama model's renderer and parser (/api/show) are on its line", () => {
    // ollama/ollama api/types.go ShowResponse.Renderer / .Parser, e.g. qwen3-coder's built-in ones.
    const m = {
      contextLength: 262144,
      capabilities: ["completion", "tools"],
      renderer: "qwen3-coder",
      parser: "qwen3-coder",
    };
    expect(modelDetail(m, "ollama")).toBe(
      "ctx 262144 · tools: native + text recovery · renderer qwen3-coder · parser qwen3-coder",
    );
  });
});

describe("queued messages", () => {
  const running = () => feed(newModel(), ...typeText("first"), key("enter")).model;
  // Alt+Enter during a run queues for after it (Enter steers the run, see update.test.ts).
  const alt = key("enter", { meta: true });

  it("each shows dimmed above the input at once, until it is sent", () => {
    const queued = feed(running(), ...typeText("second"), alt, ...typeText("third\nmore"), alt).model;
    const text = view(queued).transcript.map(strip);
    expect(text).toContain("queued: second");
    expect(text.at(-1)).toMatch(/^queued: third …\s+\(↑ edit\)$/);
    const sent = feed(queued, agent({ type: "done", reason: "complete" })).model;
    expect(view(sent).transcript.map(strip)).not.toContain("queued: second");
    expect(sent.queued).toEqual(["third\nmore"]);
  });

  it("Up on an empty input takes the last one back for editing; Alt+Enter queues it again", () => {
    const queued = feed(running(), ...typeText("second"), alt, ...typeText("third"), alt).model;
    const back = feed(queued, key("up")).model;
    expect(back.input.text).toBe("third");
    expect(back.queued).toEqual(["second"]);
    expect(feed(back, alt).model.queued).toEqual(["second", "third"]);
  });
});

describe("pastes", () => {
  it("30 copied lines (ending in a newline) are +30 lines", () => {
    const thirty = Array.from({ length: 30 }, (_, i) => `row ${i}`).join("\n") + "\n";
    expect(feed(newModel(), { type: "paste", text: thirty }).model.input.text).toBe("[Pasted text #1 +30 lines]");
    expect(feed(newModel(), { type: "paste", text: thirty.trimEnd() }).model.input.text).toBe(
      "[Pasted text #1 +30 lines]",
    );
  });
});

describe("warnings", () => {
  it("the probe's warning and the run's same warning show once", () => {
    const text = "llama3:8b does not think before answering; --think is ignored.";
    const { model } = feed(
      newModel(),
      ...typeText("hi"),
      key("enter"),
      agent({ type: "notice", level: "warn", text, runId: null }),
      agent({ type: "notice", level: "warn", text }),
    );
    expect(model.entries.filter((e) => e.kind === "notice" && e.text === text)).toHaveLength(1);
  });
});

describe("the status line's order of importance", () => {
  const seg = (priority: number, forms: string[], keep = false): StatusSegment => ({ priority, forms, keep });

  it("the least important gives way first; among equals the rightmost; kept ones only shorten", () => {
    const segments = [
      seg(80, ["state"], true),
      seg(50, ["model"]),
      seg(50, ["hint"]),
      seg(90, ["meter 10%", "10%"], true),
    ];
    expect(strip(fitStatus(segments, 40))).toBe("state · model · hint · meter 10%");
    expect(strip(fitStatus(segments, 30))).toBe("state · model · meter 10%");
    expect(strip(fitStatus(segments, 20))).toBe("state · meter 10%");
    expect(strip(fitStatus(segments, 12))).toBe("state · 10%");
    // Even narrower: the kept segments' shortest forms, cut at the edge.
    expect(strip(fitStatus(segments, 8))).toBe("state ·…");
  });

  it("a segment added later (issue 31's background jobs, say) is placed by its priority alone", () => {
    const jobs = seg(STATUS_PRIORITY.sessionTokens + 5, ["2 jobs running", "2 jobs"]);
    const line = [
      seg(STATUS_PRIORITY.state, ["idle"], true),
      jobs,
      seg(STATUS_PRIORITY.context, ["0 of 8.2k (0%)"], true),
    ];
    expect(strip(fitStatus(line, 40))).toBe("idle · 2 jobs running · 0 of 8.2k (0%)");
    expect(strip(fitStatus(line, 30))).toBe("idle · 2 jobs · 0 of 8.2k (0%)");
    expect(strip(fitStatus(line, 25))).toBe("idle · 0 of 8.2k (0%)");
  });
});

describe("the approval dialog at 80x24", () => {
  it("shows the first lines of a long diff, says what is hidden, scrolls, and leaves the status line", () => {
    const unified = makeUnifiedDiff(
      "big.txt",
      "",
      Array.from({ length: 100 }, (_, i) => `line ${i + 1}`).join("\n") + "\n",
    );
    const asked = feed(
      newModel({ width: 80, height: 24 }),
      ...typeText("make it"),
      key("enter"),
      agent({
        type: "permission-request",
        id: "p1",
        tool: "create_file",
        args: {},
        preview: unified,
        allowKey: "create_file",
      }),
    ).model;
    const frame = view(asked);
    const lines = (frame.dialog?.lines ?? []).map(strip);
    expect(lines.join("\n")).toContain("line 1");
    expect(lines.join("\n")).toMatch(/↓ \d+ more lines below/);
    expect(frame.dialog!.width).toBe(80);
    // The dialog, the status line, the rule and the input fill the screen with the transcript.
    expect(frame.transcript.length + frame.dialog!.height + 2 + frame.input.length).toBe(24);
    expect(strip(frame.status)).toMatch(/of 8\.2k \(0%\)/);
    const scrolled = feed(asked, key("pagedown")).model;
    expect((view(scrolled).dialog?.lines ?? []).map(strip).join("\n")).toMatch(/↑ \d+ more lines above/);
  });
});
