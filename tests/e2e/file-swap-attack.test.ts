// Attack (TOCTOU): while the permission dialog waits, a folder on the path of the file being
// written is swapped for a symlink that leads out of the project. Approving must not write
// through it: the canary outside the project stays as it was and nothing new appears there.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { startFakeOllama, type FakeOllama, type Reply } from "../fakes/ollama-server.js";
import { Tui, type Sandbox, eachTest, waitUntil } from "./harness.js";

const MODEL = { name: "qwen3:8b", contextLength: 40960 };
const LINE = "token = 1";

const call = (name: string, args: Record<string, unknown>): Reply => ({
  steps: [{ toolCalls: [{ name, arguments: args }] }],
});

describe("a folder swapped for a symlink during approval", () => {
  let fake: FakeOllama | undefined;
  let sb: Sandbox;
  let tui: Tui | undefined;
  eachTest(
    (s) => (sb = s),
    () => [tui, fake],
  );

  /** project/src holds a.txt; outside/ holds the canary a.txt with the same text. */
  function stage(): { outside: string; swap: () => void } {
    fs.mkdirSync(path.join(sb.project, "src"));
    fs.writeFileSync(path.join(sb.project, "src", "a.txt"), `${LINE}\n`);
    const outside = path.join(path.dirname(sb.project), "outside");
    fs.mkdirSync(outside);
    fs.writeFileSync(path.join(outside, "a.txt"), `${LINE}\n`);
    return {
      outside,
      swap: () => {
        fs.renameSync(path.join(sb.project, "src"), path.join(sb.project, "src-moved"));
        fs.symlinkSync(outside, path.join(sb.project, "src"));
      },
    };
  }

  async function approveAfterSwap(tool: string, args: Record<string, unknown>, swap: () => void): Promise<string> {
    fake = await startFakeOllama({ models: [MODEL], replies: [call(tool, args), { steps: [{ text: "finished." }] }] });
    tui = new Tui(sb, ["--host", fake.url, "--model", MODEL.name], { width: 100, height: 40 });
    await tui.waitFor("Ask anything");
    tui.type("change it");
    tui.press("Enter");
    await tui.waitFor(`Allow ${tool}?`);
    swap();
    tui.press("y");
    await tui.waitFor("finished.");
    await waitUntil(() => fake!.chats.length >= 2, 5000, "the second model request");
    const result = fake.chats[1]!.messages.find((m) => m.role === "tool");
    return String(result?.content ?? "");
  }

  it("edit_file does not write through it", async () => {
    const { outside, swap } = stage();
    const result = await approveAfterSwap(
      "edit_file",
      { path: "src/a.txt", old_string: LINE, new_string: "token = 2" },
      swap,
    );
    expect(fs.readFileSync(path.join(outside, "a.txt"), "utf8")).toBe(`${LINE}\n`);
    expect(fs.readFileSync(path.join(sb.project, "src-moved", "a.txt"), "utf8")).toBe(`${LINE}\n`);
    expect(result).toMatch(/outside the project|moved or was replaced/);
  });

  it("create_file does not create a file through it", async () => {
    const { outside, swap } = stage();
    const result = await approveAfterSwap("create_file", { path: "src/new.txt", content: "planted\n" }, swap);
    expect(fs.readdirSync(outside).sort()).toEqual(["a.txt"]);
    expect(result).toMatch(/outside the project|moved or was replaced/);
  });

  it("write_file does not create a file through it", async () => {
    const { outside, swap } = stage();
    const result = await approveAfterSwap("write_file", { path: "src/new.txt", content: "planted\n" }, swap);
    expect(fs.readdirSync(outside).sort()).toEqual(["a.txt"]);
    expect(result).toMatch(/outside the project|moved or was replaced/);
  });
});
