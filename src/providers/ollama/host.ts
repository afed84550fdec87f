// OLLAMA_HOST as the Ollama CLI reads it (envconfig.Host + ConnectableHost): ollama-js ignores the
// variable, so we resolve it ourselves.
import { isIP } from "node:net";

export const DEFAULT_OLLAMA_HOST = "http://127.0.0.1:11434";

/**
 * Every IPv6 literal has two colons or more; asking net.isIP only then matters at start: its first
 * IPv6 check compiles a large regex (~6 ms, before the first frame), and most hosts are "name:port".
 */
function isIPv6(text: string): boolean {
  return text.indexOf(":") !== text.lastIndexOf(":") && isIP(text) === 6;
}

function connectable(host: string): string {
  if (host === "" || host === "0.0.0.0") return "127.0.0.1";
  if (host === "::" || host === "0:0:0:0:0:0:0:0") return "::1";
  return host;
}

/** Splits "host:port", "[v6]:port", "host", "v6" into host and port ("" when absent). */
function splitHostPort(hostport: string): { host: string; port: string } {
  const bracketed = /^\[([^\]]*)\](?::(.*))?$/.exec(hostport);
  if (bracketed) return { host: bracketed[1] ?? "", port: bracketed[2] ?? "" };
  if (isIPv6(hostport)) return { host: hostport, port: "" };
  const colon = hostport.lastIndexOf(":");
  if (colon === -1) return { host: hostport, port: "" };
  return { host: hostport.slice(0, colon), port: hostport.slice(colon + 1) };
}

/**
 * The base URL to reach Ollama at, from --host, else $OLLAMA_HOST, else http://127.0.0.1:11434.
 * No scheme means http; the default port is 11434 without a scheme and 80/443 with one; a bare
 * 0.0.0.0 or :: (a server bind address) means this machine; ":1234" means 127.0.0.1:1234;
 * "ollama.com" means https://ollama.com:443; a path is kept; a trailing slash is dropped.
 */
export function resolveOllamaHost(flag?: string, env: NodeJS.ProcessEnv = process.env): string {
  const raw = (flag ?? env.OLLAMA_HOST ?? "").trim();
  if (raw === "") return DEFAULT_OLLAMA_HOST;
  let scheme = "http";
  let rest = raw;
  let defaultPort = "11434";
  const sep = raw.indexOf("://");
  if (sep === -1) {
    if (raw === "ollama.com") return "https://ollama.com:443";
  } else {
    scheme = raw.slice(0, sep).toLowerCase();
    rest = raw.slice(sep + 3);
    if (scheme === "http") defaultPort = "80";
    if (scheme === "https") defaultPort = "443";
  }
  const slash = rest.indexOf("/");
  const hostport = slash === -1 ? rest : rest.slice(0, slash);
  const path = slash === -1 ? "" : rest.slice(slash).replace(/\/+$/, "");
  const split = splitHostPort(hostport);
  const portNumber = Number(split.port);
  const port =
    split.port !== "" && Number.isInteger(portNumber) && portNumber >= 0 && portNumber <= 65535
      ? split.port
      : defaultPort;
  const host = connectable(split.host);
  const shownHost = isIPv6(host) ? `[${host}]` : host;
  return `${scheme}://${shownHost}:${port}${path}`;
}
