// Issue 39, part 2: agent0's own secrets out of its commands' reach, with bubblewrap's pid
// namespace and without it. A scripted model runs the three reads an attacker would: the parent's
// environment, agent0's own by its pid, and `ps eww` (which reads the same). The reads write to
// files, not to the tool result, so the output masking (safety/secrets.ts) cannot hide a leak.
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { startFakeOllama, type FakeOllama } from "../fakes/ollama-server.js";
import { MODEL, toolCalls } from "./attack-helpers.js";
import { BIN, eachTest, hideFromPath, type Sandbox } from "./harness.js";

const CANARY = "canary-own-environ-7f3a9c21";
const KEY = "sk-ant-CanaryOwnEnvironKey5521";

describe("agent0's own environment holds no secret its commands can read (part 2)", () => {
  let sb: Sandbox;
  let fake: FakeOllama | undefined;
  eachTest(
    (s) => (sb = s),
    () => [fake],
  );

  async function readThrough(): Promise<{ ppid: string; own: string; ps: string }> {
    sb.env.AGENT0_CANARY_API_KEY = CANARY;
    sb.env.ANTHROPIC_API_KEY = KEY;
    let pid = 0;
    const out = (name: string) => path.join(sb.project, name);
    fake = await startFakeOllama({
      models: [{ name: MODEL }],
      replies: (req) =>
        req.messages.some((m) => m.role === "tool")
          ? { steps: [{ text: "Read." }] }
          : toolCalls({
              name: "run_shell_command",
              arguments: {
                command: [
                  `tr '\\0' '\\n' < /proc/$PPID/environ > ppid.txt`,
                  `tr '\\0' '\\n' < /proc/${pid}/environ > own.txt 2>&1`,
                  `ps eww -p ${pid} > ps.txt 2>&1`,
                  "true",
                ].join("; "),
              },
            }),
    });
    const child = spawn("node", [BIN, "-p", "look", "--host", fake.url, "--model", MODEL, "--yolo"], {
      cwd: sb.project,
      env: sb.env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    pid = child.pid!;
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
    expect({ code, stderr }).toEqual({ code: 0, stderr: "" });
    const read = (name: string) => (fs.existsSync(out(name)) ? fs.readFileSync(out(name), "latin1") : "");
    return { ppid: read("ppid.txt"), own: read("own.txt"), ps: read("ps.txt") };
  }

  it("with bubblewrap: the parent is bwrap's, agent0 is not in the namespace", async () => {
    const { ppid, own, ps } = await readThrough();
    expect(ppid).toContain("PATH=");
    for (const text of [ppid, own, ps]) {
      expect(text).not.toContain(CANARY);
      expect(text).not.toContain(KEY);
    }
  });

  it("without bubblewrap: the parent is agent0 itself, and its environment shows the names without values", async () => {
    hideFromPath(sb, ["bwrap"]);
    const { ppid, own, ps } = await readThrough();
    // The reads reached agent0's process: its environment is there, the secrets' names too.
    expect(ppid).toContain("PATH=");
    expect(ppid).toContain("AGENT0_CANARY_API_KEY=");
    expect(own).toContain("ANTHROPIC_API_KEY=");
    expect(ps).toContain("AGENT0_CANARY_API_KEY=");
    for (const text of [ppid, own, ps]) {
      expect(text).not.toContain(CANARY);
      expect(text).not.toContain(KEY);
    }
  });
});
