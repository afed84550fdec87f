// Issue 39, part 3: without a pid namespace per command the TUI says so at its start, once per
// machine, not at every launch (`agent0 doctor`: doctor.test.ts).
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { FakeOllama } from "../fakes/ollama-server.js";
import { MODEL, withServer } from "./doctor-setup.js";
import { Tui, eachTest, hideFromPath, userConfigFile, writeJson, type Sandbox } from "./harness.js";

describe("agent0 doctor", () => {
  let sb: Sandbox;
  let fake: FakeOllama | undefined;
  let tui: Tui | undefined;
  eachTest(
    (s) => (sb = s),
    () => [tui, fake],
  );

  it("without a pid namespace the TUI says so once per machine, not at every launch", async () => {
    fake = await withServer(sb);
    hideFromPath(sb, ["bwrap"]);
    tui = await Tui.open(sb, ["--model", MODEL]);
    await tui.waitFor("without a pid namespace of their own", 15_000);
    tui.press("C-d");
    await tui.waitFor("[exit 0]");
    tui.kill();
    const marker = fs.readdirSync(path.join(sb.env.XDG_DATA_HOME!, "agent0", "told"));
    expect(marker).toHaveLength(1);
    // The boot's notices all come in one message (boot-ready), which the status line's "idle" does
    // not wait for: a config warning is a canary in that same message, so once it shows, the pid
    // namespace notice would have shown beside it.
    const config = userConfigFile(sb);
    const saved = fs.existsSync(config) ? (JSON.parse(fs.readFileSync(config, "utf8")) as object) : {};
    writeJson(config, { ...saved, bootCanary: 1 });
    tui = await Tui.open(sb, ["--model", MODEL]);
    await tui.waitFor("bootCanary: unknown key", 15_000);
    expect(tui.screen()).not.toContain("without a pid namespace");
  });
});
