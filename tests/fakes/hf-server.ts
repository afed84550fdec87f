// A fake of the Hugging Face hub's file endpoints on 127.0.0.1, as the real hub answers them:
// - `GET /api/models/<owner>/<repo>`: `{ id, siblings: [{ rfilename }] }` (huggingface_hub hf_api.py model_info).
// - `HEAD|GET /<owner>/<repo>/resolve/main/<file>`: for an LFS file a 302 to the CDN with `X-Linked-Etag`
//   (the file's sha256, quoted), `X-Linked-Size`, `X-Repo-Commit` and `ETag` (the pointer's git hash);
//   huggingface_hub file_download.py reads these (HUGGINGFACE_HEADER_X_LINKED_ETAG / _SIZE) from a HEAD
//   that follows same-host redirects only. A missing file: 404 with `X-Error-Code: EntryNotFound`; a
//   missing repository: 401 with `X-Error-Code: RepositoryNotFound` (the hub hides private repositories).
// - `GET /cdn/<sha256>`: the bytes, with `Accept-Ranges: bytes` and `Range: bytes=N-` answered 206 +
//   `Content-Range`, as the hub's CDN (cdn-lfs.hf.co, cas-bridge.xethub.hf.co) does.
// Faults a test asks for: cut the connection after a share of the body (once), hold the body halfway
// until released, a wrong sha256 in `X-Linked-Etag`. Every request is recorded.
import { createHash } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface FakeFile {
  repo: string;
  name: string;
  bytes: Buffer;
  /** Cut the first GET of the bytes after this share of the file (0.5: halfway). */
  cutAt?: number;
  /** Hold every GET of the bytes after this share until release() (to line up two processes). */
  holdAt?: number;
  /** Announce this sha256 instead of the file's own (a damaged download, as the client sees it). */
  wrongSha256?: boolean;
}

export interface HubRequest {
  method: string;
  path: string;
  range?: string;
  authorization?: string;
}

export interface FakeHub {
  url: string;
  readonly requests: HubRequest[];
  /** Bytes of files sent, over all GETs of the CDN. */
  bytesSent(): number;
  /** Resolves when a GET of the bytes reaches its hold point. */
  held(): Promise<void>;
  release(): void;
  close(): Promise<void>;
}

export function sha256(bytes: Buffer): string {
  return createHash("sha256").update(bytes).digest("hex");
}

export async function startFakeHub(files: FakeFile[]): Promise<FakeHub> {
  const requests: HubRequest[] = [];
  let sent = 0;
  const cut = new Set<FakeFile>();
  let releaseHold: () => void = () => {};
  const holdGate = new Promise<void>((r) => (releaseHold = r));
  let onHeld: () => void = () => {};
  const heldSignal = new Promise<void>((r) => (onHeld = r));

  const byPath = (repo: string, name: string) => files.find((f) => f.repo === repo && f.name === name);
  const byHash = (hash: string) => files.find((f) => sha256(f.bytes) === hash);

  function api(res: ServerResponse, repo: string) {
    const mine = files.filter((f) => f.repo === repo);
    if (!mine.length) return notFound(res, "RepositoryNotFound", 401);
    const siblings = [".gitattributes", "README.md", ...mine.map((f) => f.name)].map((rfilename) => ({ rfilename }));
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ id: repo, siblings }));
  }

  function resolve(res: ServerResponse, repo: string, name: string, port: number) {
    if (!files.some((f) => f.repo === repo)) return notFound(res, "RepositoryNotFound", 401);
    const file = byPath(repo, name);
    if (!file) return notFound(res, "EntryNotFound", 404);
    const hash = sha256(file.bytes);
    const announced = file.wrongSha256 ? sha256(Buffer.concat([file.bytes, Buffer.from("x")])) : hash;
    res.writeHead(302, {
      location: `http://127.0.0.1:${port}/cdn/${hash}`,
      "x-linked-etag": `"${announced}"`,
      "x-linked-size": String(file.bytes.length),
      "x-repo-commit": "0123456789abcdef0123456789abcdef01234567",
      etag: `"${createHash("sha1").update(`blob ${hash}`).digest("hex")}"`,
      "content-length": "0",
    });
    res.end();
  }

  function cdn(req: IncomingMessage, res: ServerResponse, hash: string) {
    const file = byHash(hash);
    if (!file) return notFound(res, "EntryNotFound", 404);
    const total = file.bytes.length;
    const m = /^bytes=(\d+)-$/.exec(req.headers.range ?? "");
    const from = m ? Number(m[1]) : 0;
    if (from >= total) {
      res.writeHead(416, { "content-range": `bytes */${total}` }).end();
      return;
    }
    const headers = {
      "accept-ranges": "bytes",
      "content-type": "application/octet-stream",
      "content-length": String(total - from),
    };
    if (m) res.writeHead(206, { ...headers, "content-range": `bytes ${from}-${total - 1}/${total}` });
    else res.writeHead(200, headers);
    if (req.method === "HEAD") return void res.end();
    let pos = from;
    const send = (until: number) => {
      const chunk = file.bytes.subarray(pos, Math.max(until, pos));
      pos += chunk.length;
      sent += chunk.length;
      return chunk;
    };
    if (file.cutAt !== undefined && !cut.has(file)) {
      cut.add(file);
      const at = Math.floor(total * file.cutAt);
      // The first half reaches the client, then the socket dies mid-body.
      res.write(send(at), () => res.socket?.destroy());
      return;
    }
    if (file.holdAt !== undefined) {
      res.write(send(Math.floor(total * file.holdAt)));
      onHeld();
      holdGate.then(
        () => res.end(send(total)),
        () => res.destroy(),
      );
      return;
    }
    res.end(send(total));
  }

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const path = decodeURIComponent(url.pathname);
    requests.push({
      method: req.method ?? "GET",
      path,
      range: req.headers.range,
      authorization: req.headers.authorization,
    });
    const port = (server.address() as AddressInfo).port;
    let m: RegExpExecArray | null;
    if ((m = /^\/api\/models\/([^/]+\/[^/]+)$/.exec(path))) return api(res, m[1]!);
    if ((m = /^\/([^/]+\/[^/]+)\/resolve\/main\/(.+)$/.exec(path))) return resolve(res, m[1]!, m[2]!, port);
    if ((m = /^\/cdn\/([0-9a-f]{64})$/.exec(path))) return cdn(req, res, m[1]!);
    notFound(res, "EntryNotFound", 404);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    bytesSent: () => sent,
    held: () => heldSignal,
    release: () => releaseHold(),
    close: () =>
      new Promise<void>((r) => {
        releaseHold();
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

function notFound(res: ServerResponse, code: string, status: number) {
  res.writeHead(status, { "x-error-code": code, "content-type": "application/json" });
  res.end(JSON.stringify({ error: code === "EntryNotFound" ? "Entry not found" : "Repository not found" }));
}
