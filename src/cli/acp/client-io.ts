// The editor's file system and terminal, as the tools' ClientFiles and ClientTerminal: offered
// only where the client said it has them (initialize's clientCapabilities).
import * as acp from "@agentclientprotocol/sdk";
import type { ClientFiles, ClientTerminal, TerminalOutcome } from "../session-agent.js";

/** fs/read_text_file and fs/write_text_file, for what the client offers of them. */
export function editorFiles(
  client: acp.AgentContext,
  session: () => string,
  caps: acp.ClientCapabilities,
): ClientFiles | undefined {
  const files: ClientFiles = {};
  if (caps.fs?.readTextFile) {
    files.read = async (path) =>
      (await client.request(acp.methods.client.fs.readTextFile, { sessionId: session(), path })).content;
  }
  if (caps.fs?.writeTextFile) {
    files.write = async (path, content) => {
      await client.request(acp.methods.client.fs.writeTextFile, { sessionId: session(), path, content });
    };
  }
  return files.read || files.write ? files : undefined;
}

/**
 * terminal/create … wait_for_exit … release: the command runs in the editor's terminal, shown in
 * its tool call (`onTerminal`); a cancel or the timeout kills it there.
 */
export function editorTerminal(
  client: acp.AgentContext,
  session: () => string,
  caps: acp.ClientCapabilities,
  onTerminal: (callId: string, terminalId: string) => void,
): ClientTerminal | undefined {
  if (!caps.terminal) return undefined;
  return {
    async run(cmd): Promise<TerminalOutcome> {
      const outcome: TerminalOutcome = {
        output: "",
        exitCode: null,
        signal: null,
        timedOut: false,
        interrupted: false,
      };
      let term: acp.TerminalHandle;
      try {
        term = await client.createTerminal({
          sessionId: session(),
          command: cmd.file,
          args: cmd.args,
          cwd: cmd.cwd,
          env: Object.entries(cmd.env).map(([name, value]) => ({ name, value })),
          outputByteLimit: cmd.outputLimit,
        });
      } catch (err) {
        return { ...outcome, spawnError: `the editor could not start it: ${(err as Error).message}` };
      }
      onTerminal(cmd.callId, term.id);
      const kill = (why: "timedOut" | "interrupted") => {
        outcome[why] = true;
        term.kill().catch(() => {});
      };
      const timer = setTimeout(() => kill("timedOut"), cmd.timeoutMs);
      const onAbort = () => kill("interrupted");
      cmd.signal.addEventListener("abort", onAbort, { once: true });
      try {
        const exit = await term.waitForExit();
        const out = await term.currentOutput();
        return { ...outcome, output: out.output, exitCode: exit.exitCode ?? null, signal: exit.signal ?? null };
      } catch (err) {
        return { ...outcome, spawnError: (err as Error).message };
      } finally {
        clearTimeout(timer);
        cmd.signal.removeEventListener("abort", onAbort);
        await term.release().catch(() => {});
      }
    },
  };
}
