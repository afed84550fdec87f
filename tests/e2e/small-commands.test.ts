import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { startFakeOllama, type FakeOllama } from "../fakes/ollama-server.js";
import { Tui, type Sandbox, eachTest, waitUntil } from "./harness.js";

const MODEL = { name: "qwen3:8b", contextLength: 40960 };

// Claude Code's /export, /cost and /diff, on one session that edited a file and made another.
describe("/export, /cost and /diff end to end", () => {
  let fake: FakeOllama | undefined;
  let sb: Sandbox;
  let tui: Tui | undefined;
  eachTest(
    (s) => (sb = s),
    () => [tui, fake],
  );

  it("each does what it says", async () => {
    fs.writeFileSync(path.join(sb.project, "app.txt"), "colour = red\n");
    fake = await startFakeOllama({
      models: [MODEL],
      replies: [
        {
          steps: [
            {
              toolCalls: [
                { name: "edit_file", arguments: { path: "app.txt", old_string: "red", new_string: "blue" } },
                { name: "create_file", arguments: { path: "new.txt", content: "fresh\n" } },
              ],
            },
          ],
        },
        { steps: [{ text: "Made it blue." }] },
      ],
    });
    tui = await Tui.open(sb, ["--host", fake.url, "--model", MODEL.name, "--permission-mode", "yolo"], {
      width: 120,
      height: 50,
    });
    tui.send("make it blue");
    await tui.waitFor("Made it blue.");
    await tui.waitFor(/^idle · /m);

    tui.send("/diff");
    // tmux 3.3 paints as bytes come: a report's heading can show before its lines, so wait for them.
    const after = (heading: string, s: string) => (s.includes(heading) ? s.slice(s.indexOf(heading)) : "");
    let screen = await tui.waitFor((s) =>
      [/- colour = red/, /\+ colour = blue/, /\+ fresh/].every((p) =>
        p.test(after("This session changed 2 files:", s)),
      ),
    );
    const shown = after("This session changed", screen);
    expect(shown).toMatch(/- colour = red/);
    expect(shown).toMatch(/\+ colour = blue/);
    expect(shown).toMatch(/\+ fresh/);

    tui.send("/cost");
    screen = await tui.waitFor((s) => /qwen3:8b: 2 requests/.test(after("Cost of this launch:", s)));
    expect(screen).toMatch(/qwen3:8b: 2 requests · [\d.]+k? in \/ \d+ out · \d+s · local: no charge/);

    tui.send("/export chat.md");
    const out = path.join(sb.project, "chat.md");
    await tui.waitFor("Exported");
    await waitUntil(() => fs.existsSync(out), 5000, "chat.md");
    const md = fs.readFileSync(out, "utf8");
    expect(md).toMatch(/^# agent0 session /);
    expect(md).toContain("## You\n\nmake it blue");
    expect(md).toContain("**Tool call** `edit_file`");
    expect(md).toContain("+colour = blue");
    expect(md).toContain("## agent0\n\nMade it blue.");
  });
});
