import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createLogger } from "../../src/session/log.js";

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "agent0-logs-"));
});
afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

function lines(file: string): Record<string, unknown>[] {
  return fs
    .readFileSync(file, "utf8")
    .trimEnd()
    .split("\n")
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

describe("the run log", () => {
  it("writes one JSON line per event and error, all there after close", () => {
    const log = createLogger(dir, { env: {} });
    expect(path.basename(log.path)).toMatch(/^agent-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-\d{3}Z-\d+\.log$/);
    for (let i = 0; i < 500; i++) log.event({ type: "text", delta: `d${i}`, runId: 1 });
    log.event({ type: "done", reason: "complete", runId: 1 });
    log.error("connection reset", { host: "http://127.0.0.1:11434" });
    log.close();
    const entries = lines(log.path);
    expect(entries).toHaveLength(502);
    expect(entries[0]).toMatchObject({ kind: "event", type: "text", delta: "d0" });
    expect(entries[500]).toMatchObject({ kind: "event", type: "done", reason: "complete" });
    expect(entries[501]).toMatchObject({ kind: "error", message: "connection reset", host: "http://127.0.0.1:11434" });
    expect(typeof entries[0]!.at).toBe("string");
  });

  it("never writes credentials: apiKey fields dropped, secret env values masked", () => {
    const env = { ANTHROPIC_API_KEY: "sk-ant-0123456789" };
    const log = createLogger(dir, { env });
    log.error("request failed", {
      config: { provider: "anthropic", apiKey: "sk-ant-0123456789", webSearch: { api_key: "ws-secret-999" } },
      headers: { Authorization: "Bearer abcdefgh" },
    });
    log.event({
      type: "tool-start",
      id: "1",
      name: "bash",
      args: { command: "echo sk-ant-0123456789" },
      label: "bash",
      runId: 1,
    });
    log.close();
    const text = fs.readFileSync(log.path, "utf8");
    expect(text).not.toContain("sk-ant-0123456789");
    expect(text).not.toContain("ws-secret-999");
    expect(text).not.toContain("Bearer");
    expect(lines(log.path)[1]).toMatchObject({ args: { command: "echo ****" } });
    expect(lines(log.path)[0]).toMatchObject({ config: { provider: "anthropic", webSearch: {} } });
  });

  it("keeps only the newest logs", () => {
    const old = Array.from(
      { length: 25 },
      (_, i) => `agent-2024-01-${String(i + 1).padStart(2, "0")}T00-00-00-000Z-1.log`,
    );
    for (const name of old) fs.writeFileSync(path.join(dir, name), "");
    fs.writeFileSync(path.join(dir, "notes.txt"), "not a log");
    const log = createLogger(dir, { keep: 20, env: {} });
    log.close();
    const left = fs.readdirSync(dir).sort();
    expect(left).toEqual(["notes.txt", ...old.slice(6), path.basename(log.path)].sort());
  });

  it("never throws into the caller, even when the folder cannot be written", () => {
    const blocker = path.join(dir, "file");
    fs.writeFileSync(blocker, "");
    const log = createLogger(path.join(blocker, "logs"), { env: {} });
    expect(() => {
      log.event({ type: "done", reason: "complete", runId: 1 });
      const circular: Record<string, unknown> = {};
      circular.self = circular;
      log.error("odd", circular);
      log.close();
      log.close();
    }).not.toThrow();
  });

  it("writes a cyclic value with the cycle marked, and a shared one in full", () => {
    const log = createLogger(dir, { env: {} });
    const shared = { n: 1 };
    const cyclic: Record<string, unknown> = { a: shared, b: shared };
    cyclic.self = cyclic;
    log.error("odd", cyclic);
    log.close();
    expect(lines(log.path)[0]).toMatchObject({
      message: "odd",
      a: { n: 1 },
      b: { n: 1 },
      self: { a: { n: 1 }, self: "[circular]" },
    });
  });

  it("survives a value JSON cannot hold and keeps logging", () => {
    const log = createLogger(dir, { env: {} });
    log.error("big", { n: BigInt(1) } as unknown as Record<string, unknown>);
    log.info("after");
    log.close();
    expect(lines(log.path)).toEqual([expect.objectContaining({ kind: "info", message: "after" })]);
  });

  it("notes a message's images by type and size: their base64 is in the session file already", () => {
    const data = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";
    const log = createLogger(dir, { env: {} });
    log.event({
      type: "message",
      message: { role: "tool", content: "[image]", toolCallId: "c", images: [{ mimeType: "image/png", data }] },
      runId: 1,
    });
    log.close();
    expect(fs.readFileSync(log.path, "utf8")).not.toContain(data);
    expect(lines(log.path)[0]).toMatchObject({ message: { images: [{ mimeType: "image/png", bytes: 70 }] } });
  });
});
