// Never lose a line, on a full disk: the app's data folder on a small tmpfs (root only).
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { startFakeOllama, type FakeOllama, type Reply } from "../fakes/ollama-server.js";
import { appOn, eachTest, waitUntil, type Sandbox } from "./harness.js";
import { dialogue, lastUser, loaded, MODEL, SAVED_LINE } from "./session-files.js";

describe("never lose a line on a full disk", () => {
  let sb: Sandbox;
  let fake: FakeOllama | undefined;
  const { open, headless, opened } = appOn(() => ({ sb, host: fake!.url }), MODEL.name);
  eachTest(
    (s) => {
      sb = s;
      fake = undefined;
    },
    () => [...opened(), fake],
  );

  /**
   * Runs `body` with the app's data folder on a fresh 512 KB tmpfs; skipped (saying why) where a
   * tmpfs cannot be mounted. The tmpfs is unmounted and the terminals closed even when `body` fails.
   */
  async function onSmallDisk(ctx: { skip: (note?: string) => void }, body: (mount: string) => Promise<void>) {
    if (process.getuid?.() !== 0) {
      ctx.skip("needs root to mount a tmpfs: skipped");
      return;
    }
    const mount = path.join(path.dirname(sb.home), "small-disk");
    fs.mkdirSync(mount);
    try {
      execFileSync("mount", ["-t", "tmpfs", "-o", "size=512k", "tmpfs", mount], { stdio: "ignore" });
    } catch {
      ctx.skip("cannot mount a tmpfs here: skipped");
      return;
    }
    try {
      sb.env.XDG_DATA_HOME = mount;
      fs.mkdirSync(path.join(mount, "agent0", "sessions"), { recursive: true });
      await body(mount);
    } finally {
      for (const t of opened()) t.kill();
      execFileSync("umount", ["-l", mount], { stdio: "ignore" });
    }
  }

  // Long answers: a line that needs new pages of the full disk (a short one can still fit into
  // the last page the file already has).
  const long = (prompt: string) => `answer to ${prompt} ` + "and more ".repeat(500);

  it("a full disk (a small tmpfs): reported, the conversation goes on, everything is written once space is freed", async (ctx) => {
    await onSmallDisk(ctx, async (mount) => {
      const filler = path.join(mount, "filler");
      fake = await startFakeOllama({
        models: [MODEL],
        replies: (chat): Reply => ({ steps: [{ text: long(lastUser(chat.messages)) }] }),
      });
      const tui = open([], { width: 200, height: 120 });
      await tui.waitFor("Ask anything");
      tui.type("first prompt");
      tui.press("Enter");
      await tui.waitFor("answer to first prompt");
      await tui.waitFor(/^idle · /m);
      // The disk fills up while the session is open (its file and checkpoints exist).
      fillUp(filler);
      tui.type("second prompt");
      tui.press("Enter");
      await tui.waitFor("answer to second prompt");
      const screen = await tui.waitFor(/^idle · .*not saved/m);
      expect(screen).toContain(
        "Could not save the session: the disk is full (ENOSPC) — the conversation continues in memory; nothing is lost while agent0 stays open.",
      );
      tui.type("third prompt");
      tui.press("Enter");
      await tui.waitFor("answer to third prompt");
      await tui.waitFor(/^idle · /m);
      // Reported once, and the worker lives on.
      expect(tui.screen().match(/Could not save the session/g)).toHaveLength(1);
      expect(tui.screen()).not.toContain("stopped unexpectedly");

      fs.rmSync(filler);
      tui.type("fourth prompt");
      tui.press("Enter");
      await tui.waitFor("answer to fourth prompt");
      await tui.waitFor("The session is saved again: 4 messages that waited were written.");
      await tui.waitFor(/^idle · /m);
      await waitUntil(() => !/not saved/.test(tui.screen()), 5000, "the not-saved flag to go");
      tui.press("C-d");
      const printed = (await tui.waitFor("[exit 0]")).match(SAVED_LINE);
      expect(printed).not.toBeNull();
      const file = path.join(mount, "agent0", "sessions", `${printed![1]}.jsonl`);
      const s = loaded(file);
      expect(s.damaged).toEqual([]);
      expect(s.messages.map((m) => m.content)).toEqual(
        ["first prompt", "second prompt", "third prompt", "fourth prompt"].flatMap((p) => [p, long(p)]),
      );
      const resumed = await headless(["--resume", printed![1]!, "-p", "fifth prompt"]);
      expect(resumed.code).toBe(0);
      expect(dialogue(fake.chats.at(-1)!.messages)).toEqual([
        ...["first prompt", "second prompt", "third prompt", "fourth prompt"].flatMap((p) => [
          `user: ${p}`,
          `assistant: ${long(p)}`,
        ]),
        "user: fifth prompt",
      ]);
    });
  });

  it("quitting while the disk is still full says the session was not saved, and where a whole copy went", async (ctx) => {
    await onSmallDisk(ctx, async (mount) => {
      fake = await startFakeOllama({
        models: [MODEL],
        replies: (chat): Reply => ({ steps: [{ text: long(lastUser(chat.messages)) }] }),
      });
      const tui = open([], { width: 250, height: 120 });
      await tui.waitFor("Ask anything");
      tui.type("first prompt");
      tui.press("Enter");
      await tui.waitFor("answer to first prompt");
      await tui.waitFor(/^idle · /m);
      fillUp(path.join(mount, "filler"));
      tui.type("second prompt");
      tui.press("Enter");
      await tui.waitFor("answer to second prompt");
      await tui.waitFor(/^idle · .*not saved/m);
      tui.press("C-d");
      const screen = (await tui.waitFor("[exit 1]")).replace(/\n/g, "");
      const said =
        /Session (\S{8}) was NOT fully saved \(the disk is full \(ENOSPC\)\): 1 message could not be written\. The whole conversation was saved to (\S+\.jsonl)/.exec(
          screen,
        );
      expect(said).not.toBeNull();
      const copy = said![2]!;
      try {
        expect(path.dirname(copy)).toBe(os.tmpdir());
        expect(loaded(copy).messages.map((m) => m.content)).toEqual(
          ["first prompt", "second prompt"].flatMap((p) => [p, long(p)]),
        );
      } finally {
        fs.rmSync(copy, { force: true });
      }
    });
  });
});

/** Writes zeros until the file system refuses more. */
function fillUp(file: string): void {
  const fd = fs.openSync(file, "w");
  const block = Buffer.alloc(4096);
  try {
    for (;;) fs.writeSync(fd, block);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOSPC") throw err;
  } finally {
    fs.closeSync(fd);
  }
  // tmpfs may still take a few bytes into a partly used page: take them too.
  const small = Buffer.alloc(1);
  const fd2 = fs.openSync(file, "a");
  try {
    for (;;) fs.writeSync(fd2, small);
  } catch {
    // full
  } finally {
    fs.closeSync(fd2);
  }
}
