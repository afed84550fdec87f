// `/thinking <level>` (issue 43 §3): the next runs reason at that level; `save` keeps it in the
// config; `/thinking` alone still folds or unfolds the thinking shown (Ctrl+T's toggle).
import { describe, expect, it } from "vitest";
import { feed, key, newModel, typeText } from "./helpers.js";

const slash = (line: string) => [...typeText(line), key("enter")];

describe("/thinking <level>", () => {
  it("sets the level the next run is sent", () => {
    const { model } = feed(newModel(), ...slash("/thinking high"));
    expect(model.config.think).toBe("high");
  });

  it("save writes it to the config", () => {
    const { model, cmds } = feed(newModel(), ...slash("/thinking off save"));
    expect(model.config.think).toBe("off");
    expect(cmds).toContainEqual({ type: "save-config", keys: { think: "off" } });
  });

  it("an unknown level is refused, the level kept", () => {
    const { model } = feed(newModel(), ...slash("/thinking hard"));
    expect(model.config.think).toBeUndefined();
    expect(JSON.stringify(model.entries)).toContain("off, on, low, medium, high, max");
  });

  it("alone, it still folds the thinking shown", () => {
    const before = newModel();
    const { model } = feed(before, ...slash("/thinking"));
    expect(model.thinkingOpen).toBe(!before.thinkingOpen);
  });
});
