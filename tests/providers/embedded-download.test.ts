// Model downloads against a fake of the Hugging Face hub's file endpoints (tests/fakes/hf-server.ts,
// modelled on huggingface_hub's file_download.py and the hub's headers), over real HTTP on 127.0.0.1.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { parseModelRef } from "../../src/providers/embedded/catalogue.js";
import { downloadModel, type DownloadEvent, type DownloadRequest } from "../../src/providers/embedded/download.js";
import {
  listLocalModels,
  localModelPath,
  modelFilePath,
  removeModel,
} from "../../src/providers/embedded/models-store.js";
import { sha256, startFakeHub, type FakeFile, type FakeHub } from "../fakes/hf-server.js";
import { closedFetchPort } from "../fakes/ports.js";

const REPO = "tester/Tiny-Coder-GGUF";
const FILE = "tiny-coder-Q4_K_M.gguf";

/** Bytes that differ everywhere (a resume from the wrong offset would fail the hash). */
function bytes(n: number, seed = 1): Buffer {
  const b = Buffer.alloc(n);
  let x = seed;
  for (let i = 0; i < n; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    b[i] = x >>> 24;
  }
  return b;
}

let dataDir: string;
let hub: FakeHub | undefined;

beforeEach(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "agent0-models-"));
});

afterEach(async () => {
  await hub?.close();
  hub = undefined;
  fs.rmSync(dataDir, { recursive: true, force: true });
});

async function serve(files: Partial<FakeFile>[]): Promise<FakeHub> {
  hub = await startFakeHub(files.map((f) => ({ repo: REPO, name: FILE, bytes: bytes(1 << 20), ...f })));
  return hub;
}

function pull(model: string, over: Partial<DownloadRequest> = {}) {
  const events: DownloadEvent[] = [];
  const done = downloadModel({ dataDir, model, endpoint: hub!.url, onEvent: (e) => events.push(e), ...over });
  return { events, done };
}

const cdnGets = (h: FakeHub) => h.requests.filter((r) => r.path.startsWith("/cdn/") && r.method === "GET");

describe("downloading a model from the hub", () => {
  test("progress with size, speed and time left; a connection cut at 50 % resumes with Range", async () => {
    const data = bytes(4 << 20, 7);
    const h = await serve([{ bytes: data, cutAt: 0.5 }]);
    const { events, done } = pull(`hf:${REPO}`);
    const r = await done;
    expect(r).toMatchObject({ ok: true, already: false, sha256: sha256(data) });
    if (!r.ok) return;
    expect(fs.readFileSync(r.path).equals(data)).toBe(true);
    expect(r.path).toBe(modelFilePath(dataDir, REPO, FILE));

    expect(events[0]).toEqual({ type: "start", file: FILE, totalBytes: data.length, fromBytes: 0 });
    const resumed = events.find((e) => e.type === "resumed");
    expect(resumed).toMatchObject({ fromBytes: data.length / 2 });
    const gets = cdnGets(h);
    expect(gets.map((g) => g.range)).toEqual([undefined, `bytes=${data.length / 2}-`]);
    // Nothing was sent twice.
    expect(h.bytesSent()).toBe(data.length);

    const progress = events.filter((e) => e.type === "progress");
    const last = progress.at(-1)!;
    expect(last).toMatchObject({ receivedBytes: data.length, totalBytes: data.length, secondsLeft: 0 });
    expect(last.bytesPerSecond).toBeGreaterThan(0);
    expect(events.at(-1)).toEqual({ type: "verifying" });
    // Only the checked file is left: no part, no lock.
    expect(fs.readdirSync(path.dirname(r.path))).toEqual([FILE]);
  });

  test("the hub's HEAD is what huggingface_hub sends: resolve/main, then the CDN's address", async () => {
    const h = await serve([{}]);
    await pull(`hf:${REPO}:q4_k_m`).done;
    const paths = h.requests.map((q) => `${q.method} ${q.path}`);
    expect(paths.slice(0, 2)).toEqual([`GET /api/models/${REPO}`, `HEAD /${REPO}/resolve/main/${FILE}`]);
    expect(paths[2]).toMatch(/^GET \/cdn\/[0-9a-f]{64}$/);
  });

  test("a sha256 that differs from the hub's is refused, deleted and said", async () => {
    await serve([{ wrongSha256: true }]);
    const r = await pull(`hf:${REPO}`).done;
    expect(r).toMatchObject({ ok: false, kind: "checksum" });
    if (r.ok) return;
    expect(r.message).toMatch(/sha256 is [0-9a-f]{64}, the hub's is [0-9a-f]{64}\. The file was deleted/);
    expect(fs.readdirSync(path.dirname(modelFilePath(dataDir, REPO, FILE)))).toEqual([]);
    expect(localModelPath(dataDir, { kind: "hf", repo: REPO, quant: "Q4_K_M" })).toBeUndefined();
  });

  test("not enough disk is refused before the first byte, with both figures", async () => {
    const h = await serve([{}]);
    const r = await pull(`hf:${REPO}`, { freeDiskBytes: () => 300_000 }).done;
    expect(r).toMatchObject({ ok: false, kind: "disk" });
    if (r.ok) return;
    expect(r.message).toContain("it needs 1 MB and 300 KB is free");
    expect(cdnGets(h)).toEqual([]);
  });

  test("offline: the error says what to run where a network is", async () => {
    await serve([{}]);
    const r = await pull("qwen2.5-coder:1.5b", { endpoint: `http://127.0.0.1:${await closedFetchPort()}` }).done;
    expect(r).toMatchObject({ ok: false, kind: "offline" });
    if (r.ok) return;
    expect(r.message).toContain("ECONNREFUSED");
    expect(r.message).toContain("Where a network is, run: agent0 models pull qwen2.5-coder:1.5b");
  });

  test("a quantisation the repository lacks names the ones it has; an unknown repository is not found", async () => {
    await serve([{}, { name: "tiny-coder-Q8_0.gguf" }]);
    const r = await pull(`hf:${REPO}:Q6_K`).done;
    expect(r).toMatchObject({ ok: false, kind: "not-found" });
    expect(!r.ok && r.message).toContain("(it has: Q4_K_M, Q8_0)");
    expect(await pull("hf:nobody/Nothing-GGUF").done).toMatchObject({ ok: false, kind: "not-found" });
  });

  test("a stopped download keeps its part; the next pull resumes it, the one after finds the file", async () => {
    const data = bytes(2 << 20, 3);
    const h = await serve([{ bytes: data, holdAt: 0.5 }]);
    const stop = new AbortController();
    const first = pull(`hf:${REPO}`, { signal: stop.signal });
    await h.held();
    const part = modelFilePath(dataDir, REPO, FILE) + ".part";
    // Wait until the half already sent has reached the file (written before the next chunk is read).
    while ((fs.statSync(part, { throwIfNoEntry: false })?.size ?? 0) < data.length / 2) {
      await new Promise((r) => setTimeout(r, 20));
    }
    stop.abort();
    expect(await first.done).toMatchObject({ ok: false, kind: "aborted" });
    expect(fs.statSync(part).size).toBe(data.length / 2);
    h.release();

    const second = await pull(`hf:${REPO}`).done;
    expect(second).toMatchObject({ ok: true, already: false, sha256: sha256(data) });
    expect(cdnGets(h).at(-1)?.range).toBe(`bytes=${data.length / 2}-`);

    const before = h.requests.length;
    expect(await pull(`hf:${REPO}`).done).toMatchObject({ ok: true, already: true });
    // The file is found on disk: the hub is not asked for its bytes again.
    expect(cdnGets(h).length).toBe(2);
    expect(h.requests.length - before).toBeLessThanOrEqual(1);
  });
});

describe("the models folder", () => {
  test("lists the catalogue and downloaded files with sizes; removes one", async () => {
    await serve([{}]);
    expect((await pull(`hf:${REPO}`).done).ok).toBe(true);
    const rows = listLocalModels(dataDir);
    expect(rows.find((r) => r.name === "qwen2.5-coder:3b")?.path).toBeUndefined();
    const mine = rows.find((r) => r.repo === REPO);
    expect(mine).toMatchObject({
      name: `hf:${REPO}:Q4_K_M`,
      sizeBytes: 1 << 20,
      path: modelFilePath(dataDir, REPO, FILE),
    });
    const ref = parseModelRef(mine!.name);
    expect("error" in ref ? undefined : localModelPath(dataDir, ref)).toBe(mine!.path);
    expect(removeModel(dataDir, mine!.name)).toMatchObject({ freedBytes: 1 << 20 });
    expect(listLocalModels(dataDir).find((r) => r.repo === REPO)).toBeUndefined();
    expect(removeModel(dataDir, "qwen2.5-coder:3b")).toHaveProperty("error");
  });
});
