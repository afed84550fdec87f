import { describe, expect, it } from "vitest";
import { AgentHandle } from "../../src/ui/runtime/agent-handle.js";
import type { RunEvent } from "../../src/protocol/agent-event.js";

const waitFor = async (check: () => boolean) => {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 20));
};

describe("the worker handle", () => {
  it("stops restarting a worker that cannot even start, and says so instead of looping", async () => {
    const events: RunEvent[] = [];
    const broken = new URL("data:text/javascript,throw new Error('missing module')");
    const agent = new AgentHandle((e) => events.push(e), broken);
    await waitFor(() =>
      events.some((e) => e.type === "error" && e.message.startsWith("The agent worker cannot start")),
    );
    const errors = events.filter((e) => e.type === "error");
    expect(errors).toHaveLength(2);
    expect(errors[0]).toMatchObject({ message: expect.stringContaining("stopped unexpectedly") });
    expect(errors[1]).toMatchObject({
      message: expect.stringContaining("cannot start"),
      hint: expect.stringContaining("npm install"),
    });
    agent.send({ type: "cancel", runId: 1 });
    agent.send({ type: "run", runId: 1, conversation: [], config: {} as never });
    expect(events.at(-1)).toEqual({ type: "done", reason: "error", runId: 1 });
    await agent.close();
  });
});
