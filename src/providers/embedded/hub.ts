// The Hugging Face hub's file endpoints, as huggingface_hub reads them (src/huggingface_hub/file_download.py,
// get_hf_file_metadata; huggingface.js packages/hub/src/lib/file-download-info.ts): a HEAD on
// `<endpoint>/<repo>/resolve/main/<file>` that follows only same-host redirects answers, for a file kept in
// LFS, `X-Linked-Etag` (the file's sha256), `X-Linked-Size` and a `Location` on the CDN that serves the
// bytes (with HTTP Range). `$HF_ENDPOINT` points it elsewhere (a mirror; the tests' fake), `$HF_TOKEN`
// authenticates to the hub only, never to the CDN.

/** huggingface_hub's default endpoint (constants.py ENDPOINT). */
export const DEFAULT_HF_ENDPOINT = "https://huggingface.co";

export function hfEndpoint(env: NodeJS.ProcessEnv = process.env): string {
  const e = env.HF_ENDPOINT?.trim();
  return (e || DEFAULT_HF_ENDPOINT).replace(/\/+$/, "");
}

export type HubErrorKind = "offline" | "not-found" | "auth" | "http" | "aborted";

export class HubError extends Error {
  constructor(
    readonly kind: HubErrorKind,
    message: string,
  ) {
    super(message);
  }
}

/** What the hub says of one file before a byte of it comes. */
export interface HubFile {
  /** Where to GET the bytes (the CDN's address after the hub's redirect). */
  url: string;
  sizeBytes: number;
  /** Lower-case hex, from `X-Linked-Etag`. */
  sha256: string;
}

export interface HubOptions {
  endpoint: string;
  token?: string;
  signal?: AbortSignal;
}

function hubHeaders(opts: HubOptions): Record<string, string> {
  return opts.token ? { authorization: `Bearer ${opts.token}` } : {};
}

/** A fetch whose network failure becomes a HubError saying what to do where a network is. */
export async function hubFetch(url: string, init: RequestInit, what: string): Promise<Response> {
  try {
    return await fetch(url, init);
  } catch (err) {
    if (init.signal?.aborted) throw new HubError("aborted", "Stopped.");
    const code = networkCode(err) ?? (err as Error).message;
    const host = new URL(url).host;
    throw new HubError("offline", `Cannot reach ${host} (${code}): no network? Where a network is, run: ${what}`);
  }
}

/** undici's reason under fetch's "fetch failed": the cause's code, or its first error's (AggregateError). */
function networkCode(err: unknown): string | undefined {
  const cause = (err as { cause?: { code?: string; errors?: { code?: string }[] } }).cause;
  return cause?.code ?? cause?.errors?.find((e) => e.code)?.code;
}

function failure(res: Response, subject: string): HubError {
  const code = res.headers.get("x-error-code");
  if (res.status === 404 || code === "EntryNotFound" || code === "RepositoryNotFound") {
    return new HubError("not-found", `${subject} is not on the hub (HTTP ${res.status}${code ? `, ${code}` : ""}).`);
  }
  if (res.status === 401 || res.status === 403) {
    return new HubError(
      "auth",
      `${subject}: the hub refused access (HTTP ${res.status}); a gated repository needs $HF_TOKEN.`,
    );
  }
  return new HubError("http", `${subject}: the hub answered HTTP ${res.status}.`);
}

/** The repository's file names (huggingface_hub's model_info: `GET /api/models/<repo>`, `siblings[].rfilename`). */
export async function listRepoFiles(repo: string, opts: HubOptions, what: string): Promise<string[]> {
  const res = await hubFetch(
    `${opts.endpoint}/api/models/${repo}`,
    { headers: hubHeaders(opts), signal: opts.signal },
    what,
  );
  if (!res.ok) throw failure(res, repo);
  const body = (await res.json()) as { siblings?: { rfilename?: unknown }[] };
  return (body.siblings ?? []).flatMap((s) => (typeof s.rfilename === "string" ? [s.rfilename] : []));
}

/** The sha256 in an `X-Linked-Etag` value: `"<hex>"` or `W/"<hex>"`. */
export function etagSha256(value: string | null): string | undefined {
  const hex = value?.replace(/^W\//, "").replace(/"/g, "").trim().toLowerCase();
  return hex && /^[0-9a-f]{64}$/.test(hex) ? hex : undefined;
}

/** HEAD on the file: its size, its sha256 and where its bytes are. */
export async function resolveHubFile(repo: string, file: string, opts: HubOptions, what: string): Promise<HubFile> {
  let url = `${opts.endpoint}/${repo}/resolve/main/${file.split("/").map(encodeURIComponent).join("/")}`;
  const origin = new URL(url).origin;
  for (let hop = 0; hop < 5; hop++) {
    const res = await hubFetch(
      url,
      {
        method: "HEAD",
        redirect: "manual",
        headers: { ...hubHeaders(opts), "accept-encoding": "identity" },
        signal: opts.signal,
      },
      what,
    );
    const location = res.headers.get("location");
    const sha256 = etagSha256(res.headers.get("x-linked-etag"));
    const size = Number(res.headers.get("x-linked-size") ?? res.headers.get("content-length"));
    if (res.status >= 300 && res.status < 400 && location) {
      const next = new URL(location, url);
      // A same-host redirect is a renamed repository: follow it; another host is the CDN: the bytes are there.
      if (next.origin === origin && !sha256) {
        url = next.href;
        continue;
      }
      return checked({ url: next.href, sizeBytes: size, sha256 }, `${repo}/${file}`);
    }
    if (!res.ok) throw failure(res, `${repo}/${file}`);
    return checked({ url, sizeBytes: size, sha256 }, `${repo}/${file}`);
  }
  throw new HubError("http", `${repo}/${file}: too many redirects.`);
}

function checked(f: { url: string; sizeBytes: number; sha256?: string }, subject: string): HubFile {
  if (!f.sha256)
    throw new HubError("http", `${subject}: the hub gave no sha256 (X-Linked-Etag), so the file could not be checked.`);
  if (!Number.isSafeInteger(f.sizeBytes) || f.sizeBytes <= 0)
    throw new HubError("http", `${subject}: the hub gave no size.`);
  return { url: f.url, sizeBytes: f.sizeBytes, sha256: f.sha256 };
}

/** The CDN's bytes from `from` on, with the hub's token only when the CDN is the hub itself. */
export function fetchBytes(file: HubFile, from: number, opts: HubOptions, what: string): Promise<Response> {
  const sameHost = new URL(file.url).origin === new URL(opts.endpoint).origin;
  const headers: Record<string, string> = { "accept-encoding": "identity", ...(sameHost ? hubHeaders(opts) : {}) };
  if (from > 0) headers.range = `bytes=${from}-`;
  return hubFetch(file.url, { headers, signal: opts.signal }, what);
}
