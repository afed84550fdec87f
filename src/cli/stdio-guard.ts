// `agent0 acp` and `agent0 mcp serve` speak their protocol on stdout: one stray line there (a
// library's console.log) would be a malformed message to the client. Console output goes to
// stderr instead, which clients show or log.
export function keepStdoutForProtocol(): void {
  const toStderr = (...args: unknown[]) => console.error(...args);
  console.log = toStderr;
  console.info = toStderr;
  console.debug = toStderr;
}
