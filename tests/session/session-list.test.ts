import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  formatSessionList,
  latestSessionFor,
  listSessions,
  resolveSession,
  SessionWriter,
  type SessionSummary,
} from "../../src/session/writer.js";

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "agent0-sessions-"));
});
afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

/** A session whose file was last written `ageMs` ago. */
function session(id: string, opts: { cwd?: string; prompts?: string[]; ageMs?: number; title?: string } = {}): string {
  const writer = SessionWriter.create(
    dir,
    { id, cwd: opts.cwd ?? "/work/app", provider: "ollama", model: "qwen3:8b", title: opts.title },
    { env: {} },
  );
  for (const p of opts.prompts ?? ["hello"]) {
    writer.append({ role: "user", content: p });
    writer.append({ role: "assistant", content: `answer to ${p}` });
  }
  writer.close();
  const when = new Date(Date.now() - (opts.ageMs ?? 0));
  fs.utimesSync(writer.path, when, when);
  return writer.path;
}

describe("listing sessions", () => {
  it("lists three valid sessions newest first and warns about the corrupt one by name", () => {
    session("aaaa1111-0000-4000-8000-000000000001", { prompts: ["oldest"], ageMs: 30_000 });
    session("bbbb2222-0000-4000-8000-000000000002", { prompts: ["newest", "second"], ageMs: 0 });
    session("cccc3333-0000-4000-8000-000000000003", { prompts: ["middle"], ageMs: 10_000 });
    const corrupt = path.join(dir, "dddd4444-0000-4000-8000-000000000004.jsonl");
    fs.writeFileSync(corrupt, "\u0000\u0001 not a session");

    const { sessions, warnings } = listSessions(dir);
    expect(sessions.map((s) => s.title)).toEqual(["newest", "middle", "oldest"]);
    expect(sessions[0]).toMatchObject({
      id: "bbbb2222-0000-4000-8000-000000000002",
      cwd: "/work/app",
      messageCount: 4,
      model: "qwen3:8b",
    });
    expect(warnings).toEqual([`${corrupt}: not a readable agent0 session (header does not parse)`]);
  });

  it("counts messages through resets and ignores a torn last line", () => {
    const file = session("eeee5555-0000-4000-8000-000000000005", { prompts: ["a", "b", "c"] });
    const writer = SessionWriter.open(dir, "eeee5555-0000-4000-8000-000000000005", { env: {} });
    writer.reset([{ role: "user", content: "summary" }]);
    writer.append({ role: "assistant", content: "after" });
    writer.meta({ title: "Renamed", model: "llama3" });
    writer.close();
    fs.appendFileSync(file, '{"type":"message","at":"t","message":{"role":"us');
    const [summary] = listSessions(dir).sessions;
    expect(summary).toMatchObject({ messageCount: 2, title: "Renamed", model: "llama3" });
  });

  it("gives an empty list when there is no sessions folder yet", () => {
    expect(listSessions(path.join(dir, "nope"))).toEqual({ sessions: [], warnings: [] });
  });

  it("finds the newest session of a folder for --continue", () => {
    session("aaaa1111-0000-4000-8000-000000000001", { cwd: "/work/app", ageMs: 20_000 });
    session("bbbb2222-0000-4000-8000-000000000002", { cwd: "/work/app", ageMs: 5_000 });
    session("cccc3333-0000-4000-8000-000000000003", { cwd: "/work/other", ageMs: 0 });
    expect(latestSessionFor(dir, "/work/app")?.id).toBe("bbbb2222-0000-4000-8000-000000000002");
    expect(latestSessionFor(dir, "/work/none")).toBeUndefined();
  });
});

describe("resolving an id or prefix", () => {
  beforeEach(() => {
    session("abc12345-0000-4000-8000-000000000001", { prompts: ["fix the parser"] });
    session("abc67890-0000-4000-8000-000000000002", { prompts: ["write the docs"] });
    session("f0000000-0000-4000-8000-000000000003", { prompts: ["other"] });
  });

  it("accepts a full id and a unique prefix", () => {
    expect(resolveSession(dir, "f0000000-0000-4000-8000-000000000003")).toEqual({
      ok: true,
      id: "f0000000-0000-4000-8000-000000000003",
      path: path.join(dir, "f0000000-0000-4000-8000-000000000003.jsonl"),
    });
    expect(resolveSession(dir, "abc6")).toMatchObject({ ok: true, id: "abc67890-0000-4000-8000-000000000002" });
  });

  it("lists the candidates of an ambiguous prefix with their titles", () => {
    expect(resolveSession(dir, "abc")).toEqual({
      ok: false,
      error:
        "'abc' matches 2 sessions; give more of the id:\n" +
        "  abc12345-0000-4000-8000-000000000001  fix the parser\n" +
        "  abc67890-0000-4000-8000-000000000002  write the docs",
    });
  });

  it("says how to list sessions when nothing matches", () => {
    expect(resolveSession(dir, "zzz")).toEqual({
      ok: false,
      error: "No session matches 'zzz'. Run `agent0 sessions` to list them.",
    });
    expect(resolveSession(dir, "")).toEqual({
      ok: false,
      error: "No session matches ''. Run `agent0 sessions` to list them.",
    });
  });
});

describe("the agent0 sessions table", () => {
  const now = Date.parse("2025-06-10T12:00:00Z");
  const row = (over: Partial<SessionSummary>): SessionSummary => ({
    id: "abc12345-0000-4000-8000-000000000001",
    path: "/x",
    updated: now - 3 * 60_000,
    cwd: "/home/ada/code/agent0",
    title: "Add a verbose flag",
    messageCount: 12,
    model: "m",
    damaged: 0,
    ...over,
  });

  it("shows id, relative update, folder, shortened title and message count", () => {
    const text = formatSessionList(
      [
        row({}),
        row({
          id: "f0000000-0000-4000-8000-000000000003",
          updated: Date.parse("2025-05-01T09:00:00Z"),
          cwd: "/srv/app",
          title: "x".repeat(80),
          messageCount: 3,
        }),
      ],
      now,
      "/home/ada",
    );
    expect(text.split("\n")).toEqual([
      "ID                                    UPDATED     FOLDER         TITLE                                               MESSAGES",
      "abc12345-0000-4000-8000-000000000001  3 min ago   ~/code/agent0  Add a verbose flag                                  12",
      `f0000000-0000-4000-8000-000000000003  2025-05-01  /srv/app       ${"x".repeat(49)}…  3`,
    ]);
  });

  it("says so when there are none", () => {
    expect(formatSessionList([], now)).toBe("No sessions yet.");
  });
});
