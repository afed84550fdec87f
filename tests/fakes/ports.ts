import { createServer, type AddressInfo } from "node:net";

/** A port that was free a moment ago and has nothing listening on it now (a server that is down). */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}
