// agent0 against the protocol's own reference servers (installed as dev dependencies): the
// "everything" server over stdio (through a tap that records its traffic) and over Streamable
// HTTP, and the filesystem server confined to a temp folder — with the fake model scripted to use them.
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { startFakeOllama } from "../fakes/ollama-server.js";
import { freePort } from "../fakes/ports.js";
import { ownSandbox, ROOT, runHeadless, Tui, waitUntil, type Sandbox } from "./harness.js";

const MODEL = { name: "qwen3:8b", contextLength: 40960 };
const EVERYTHING = path.join(ROOT, "node_modules", "@modelcontextprotocol", "server-everything", "dist", "index.js");
const FILESYSTEM = path.join(ROOT, "node_modules", "@modelcontextprotocol", "server-filesystem", "dist", "index.js");
const TAP = path.join(ROOT, "tests", "fakes", "mcp-tap.mjs");

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ESRCH") throw err;
    return false;
  }
}

/** The tap's log: its pids line and the JSON-RPC messages each way. */
function readTap(log: string): {
  pids: number[];
  sent: Record<string, unknown>[];
  received: Record<string, unknown>[];
} {
  const lines = fs.readFileSync(log, "utf8").split("\n").filter(Boolean);
  // The tap writes its pids line first; until then (a read between open and write) there are none.
  const pids = lines[0]?.startsWith("pids ") ? lines[0].split(" ").slice(1).map(Number) : [];
  const parse = (mark: string) => lines.filter((l) => l.startsWith(mark)).map((l) => JSON.parse(l.slice(2)));
  return { pids, sent: parse("> "), received: parse("< ") };
}

/** `everything` over Streamable HTTP, on a free port; resolves once it listens. */
async function startHttpEverything(): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(process.execPath, [EVERYTHING, "streamableHttp"], {
    env: { PATH: process.env.PATH, PORT: String(port) },
    stdio: ["ignore", "ignore", "pipe"],
  });
  await new Promise<void>((resolve, reject) => {
    let err = "";
    child.stderr!.on("data", (d: Buffer) => {
      err += d.toString();
      if (err.includes("listening on port")) resolve();
    });
    child.on("exit", () => reject(new Error(`the HTTP server exited: ${err}`)));
  });
  return { url: `http://127.0.0.1:${port}/mcp`, child };
}

function writeUserConfig(sb: Sandbox, servers: Record<string, unknown>): void {
  const dir = path.join(sb.env.XDG_CONFIG_HOME!, "agent0");
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, "config.json"), JSON.stringify({ mcpServers: servers }));
}

// The tests are independent, each with its own sandbox, fake and servers, and run concurrently: most
// of each one's time is agent0 waiting out the MCP spec's shutdown grace (the everything server does
// not exit when its stdin closes once its timers run: 2 s, then SIGTERM), and those waits overlap.
describe.concurrent("the MCP reference servers end to end", () => {
  /** Kills what the test started outside the app (the HTTP server, the tap's recorded pids) when it ends. */
  const reaper = (keep: ReturnType<typeof ownSandbox>["keep"]) => {
    const pids: number[] = [];
    const children: ChildProcess[] = [];
    keep({
      kill: () => {
        for (const c of children) c.kill("SIGKILL");
        for (const pid of pids.splice(0)) if (alive(pid)) process.kill(pid, "SIGKILL");
      },
    });
    return { pids, children };
  };

  it("tools over stdio, Streamable HTTP and the confined filesystem server; an image to a non-vision model", async ({
    onTestFinished,
  }) => {
    const { sb, keep } = ownSandbox(onTestFinished);
    const web = await startHttpEverything();
    reaper(keep).children.push(web.child);
    // Inside the project: agent0 offers the project as the servers' root, which this server
    // uses in place of its command-line folders.
    const files = path.join(sb.project, "shared");
    fs.mkdirSync(files);
    fs.writeFileSync(path.join(files, "notes.txt"), "reference notes");
    writeUserConfig(sb, {
      everything: { command: process.execPath, args: [EVERYTHING, "stdio"] },
      web: { type: "http", url: web.url },
      fs: { command: process.execPath, args: [FILESYSTEM, files] },
    });
    const fake = await startFakeOllama({
      models: [MODEL],
      replies: [
        {
          steps: [
            {
              toolCalls: [
                { name: "mcp__everything__get-sum", arguments: { a: 2, b: 3 } },
                { name: "mcp__everything__get-tiny-image", arguments: {} },
                { name: "mcp__web__echo", arguments: { message: "over http" } },
                { name: "mcp__fs__list_directory", arguments: { path: files } },
                { name: "mcp__fs__read_text_file", arguments: { path: "/etc/hostname" } },
              ],
            },
          ],
        },
        { steps: [{ text: "All five came back." }] },
      ],
    });
    keep(fake);
    const r = await runHeadless(
      sb,
      ["-p", "use the servers", "--host", fake.url, "--model", MODEL.name, "--yolo"],
      40_000,
    );
    expect(r.stderr).toBe("");
    expect(r.stdout).toContain("All five came back.");
    const results = fake.chats[1]!.messages.filter((m) => m.role === "tool");
    const byName = (name: string) => results.find((m) => m.tool_name === name)!.content;
    expect(byName("mcp__everything__get-sum")).toContain("The sum of 2 and 3 is 5.");
    // The model has no vision capability: the image is described, its bytes never sent.
    expect(byName("mcp__everything__get-tiny-image")).toMatch(/\[image: image\/png, \d+ bytes\]/);
    expect(fake.chats[1]!.messages.some((m) => m.images?.length)).toBe(false);
    expect(byName("mcp__web__echo")).toBe("Echo: over http");
    expect(byName("mcp__fs__list_directory")).toContain("[FILE] notes.txt");
    // Confined: the filesystem server refuses a path outside its folder (and the project root it was offered).
    expect(byName("mcp__fs__read_text_file")).toMatch(/Access denied|outside allowed/i);
    // The model saw the servers' own schemas.
    const names = (fake.chats[0]!.tools as { function: { name: string } }[]).map((t) => t.function.name);
    expect(names).toEqual(
      expect.arrayContaining(["mcp__everything__get-sum", "mcp__web__echo", "mcp__fs__read_text_file"]),
    );
    expect(names).toEqual(expect.arrayContaining(["list_mcp_resources", "read_mcp_resource"]));
  });

  it("an image from the everything server reaches a model with the vision capability, byte for byte", async ({
    onTestFinished,
  }) => {
    const { sb, keep } = ownSandbox(onTestFinished);
    writeUserConfig(sb, { everything: { command: process.execPath, args: [EVERYTHING, "stdio"] } });
    const fake = await startFakeOllama({
      models: [{ ...MODEL, capabilities: ["completion", "tools", "vision"] }],
      replies: [
        { steps: [{ toolCalls: [{ name: "mcp__everything__get-tiny-image", arguments: {} }] }] },
        { steps: [{ text: "It is the MCP logo." }] },
      ],
    });
    keep(fake);
    const r = await runHeadless(sb, ["-p", "show me", "--host", fake.url, "--model", MODEL.name, "--yolo"], 40_000);
    expect(r.stderr).toBe("");
    expect(r.stdout).toContain("It is the MCP logo.");
    // The server's own image, as its source has it.
    const source = fs.readFileSync(path.join(path.dirname(EVERYTHING), "tools", "get-tiny-image.js"), "utf8");
    const logo = /MCP_TINY_IMAGE = "([^"]+)"/.exec(source)![1]!;
    const sent = fake.chats[1]!.messages;
    const result = sent.find((m) => m.role === "tool")!;
    expect(result.content).toContain("Here's the image you requested:");
    expect(result.content).toMatch(/\[image: image\/png, \d+ bytes\]/);
    // Ollama renders a tool message from its text: the image follows in a user message.
    expect(sent.at(-1)).toMatchObject({ role: "user", images: [logo] });
    expect(sent.indexOf(sent.at(-1)!)).toBe(sent.indexOf(result) + 1);
  });

  it("headless: @server:uri attaches the resource beside an @file; an unreadable one fails before any request", async ({
    onTestFinished,
  }) => {
    const { sb, keep } = ownSandbox(onTestFinished);
    writeUserConfig(sb, { everything: { command: process.execPath, args: [EVERYTHING, "stdio"] } });
    fs.writeFileSync(path.join(sb.project, "notes.txt"), "local notes 7731");
    const fake = await startFakeOllama({ models: [MODEL], replies: [{ steps: [{ text: "Read both." }] }] });
    keep(fake);
    const uri = "demo://resource/static/document/features.md";
    const prompt = `compare @everything:${uri} with @notes.txt`;
    let r = await runHeadless(sb, ["-p", prompt, "--host", fake.url, "--model", MODEL.name], 40_000);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("Read both.");
    const sent = fake.chats[0]!.messages.at(-1)!;
    expect(sent.role).toBe("user");
    // The server's own document, and the project's file, both attached to the one user turn.
    const doc = fs.readFileSync(path.join(path.dirname(EVERYTHING), "docs", "features.md"), "utf8");
    expect(sent.content).toContain(doc.split("\n")[0]!);
    expect(sent.content).toContain(`<resource server="everything" uri="${uri}">`);
    expect(sent.content).toContain("local notes 7731");

    const chats = fake.chats.length;
    r = await runHeadless(
      sb,
      ["-p", "read @everything:demo://no/such/thing", "--host", fake.url, "--model", MODEL.name],
      40_000,
    );
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^error: could not read @everything:demo:\/\/no\/such\/thing: /m);
    expect(fake.chats.length).toBe(chats);
  });

  it("TUI: a prompt as a slash command, a resource with @, progress and Esc cancelling, list_changed, /mcp restart, nothing left at quit", async ({
    onTestFinished,
  }) => {
    const { sb, keep } = ownSandbox(onTestFinished);
    const { pids } = reaper(keep);
    const log = path.join(sb.home, "tap.log");
    writeUserConfig(sb, {
      everything: { command: process.execPath, args: [TAP, log, process.execPath, EVERYTHING, "stdio"] },
    });
    const fake = await startFakeOllama({
      models: [MODEL],
      replies: [
        { steps: [{ text: "A simple answer." }] },
        { steps: [{ text: "It is sunny in Paris." }] },
        { steps: [{ text: "The architecture is layered." }] },
        { steps: [{ text: "Resource 7 read." }] },
        {
          steps: [
            {
              toolCalls: [
                { name: "mcp__everything__trigger-long-running-operation", arguments: { duration: 30, steps: 30 } },
              ],
            },
          ],
        },
        { steps: [{ text: "stopped" }] },
      ],
    });
    keep(fake);
    const t = keep(new Tui(sb, ["--host", fake.url, "--model", MODEL.name], { width: 140, height: 40 }));
    await t.waitFor("Ask anything");
    await t.waitFor("MCP: everything", 20_000);
    await waitUntil(() => fs.existsSync(log) && readTap(log).pids.length > 0, 5_000, "the tap log");
    const first = readTap(log).pids;
    pids.push(...first);

    // list_changed: the server adds tools once it knows the client (roots), says so, and the
    // client lists them again; the new tool reaches /mcp and the model.
    await waitUntil(
      () => readTap(log).received.some((m) => m.method === "notifications/tools/list_changed"),
      10_000,
      "tools/list_changed from the server",
    );
    await waitUntil(
      () => {
        const tap = readTap(log);
        const changed = tap.received.findIndex((m) => m.method === "notifications/tools/list_changed");
        const lists = tap.sent.filter((m) => m.method === "tools/list");
        return changed >= 0 && lists.length >= 2;
      },
      10_000,
      "a second tools/list after the notification",
    );
    t.type("/mcp");
    t.press("Enter");
    let screen = await t.waitFor("MCP servers (1):");
    expect(screen).toMatch(/everything — running \(stdio, pid \d+, \d+ tools, 4 prompts, 7 resources\)/);
    expect(screen).toContain("get-roots-list");
    expect(screen).toContain("/mcp__everything__args-prompt");

    // A prompt without arguments, run from the slash menu: Enter on its row runs it.
    t.type("/simple");
    // The menu's row: the command, its description and where it comes from.
    await t.waitFor(/\/mcp__everything__simple-prompt +A prompt with no arguments \[mcp:everything\]/);
    t.press("Enter");
    await t.waitFor("A simple answer.");
    const simpleTurn = fake.chats[0]!.messages.filter((m) => m.role === "user").at(-1)!;
    expect(simpleTurn.content).toBe("This is a simple prompt without arguments.");
    const names = (fake.chats[0]!.tools as { function: { name: string } }[]).map((x) => x.function.name);
    expect(names).toContain("mcp__everything__get-roots-list");

    // A prompt with arguments: the menu shows their names; Enter completes it, the user types them.
    t.type("/args");
    screen = await t.waitFor("/mcp__everything__args-prompt <city> [state]");
    expect(screen).toContain("A prompt with two arguments, one required and one optional [mcp:everything]");
    t.press("Enter");
    t.type("Paris");
    await t.waitFor("› /mcp__everything__args-prompt Paris");
    t.press("Enter");
    await t.waitFor("It is sunny in Paris.");
    const promptTurn = fake.chats[1]!.messages.filter((m) => m.role === "user").at(-1)!;
    expect(promptTurn.content).toBe("What's weather in Paris?");

    // A resource attached with @: the @ menu offers it beside the files; Enter takes it, Enter sends.
    t.type("summarize @archit");
    screen = await t.waitFor("@everything:demo://resource/static/document/architecture.md");
    expect(screen).toContain("[mcp:everything]");
    t.press("Enter");
    await t.waitFor("summarize @everything:demo://resource/static/document/architecture.md");
    t.press("Enter");
    await t.waitFor("The architecture is layered.");
    const resourceTurn = fake.chats[2]!.messages.filter((m) => m.role === "user").at(-1)!;
    expect(resourceTurn.content).toContain("summarize @everything:demo://resource/static/document/architecture.md");
    expect(resourceTurn.content).toContain(
      '<resource server="everything" uri="demo://resource/static/document/architecture.md">',
    );
    expect(resourceTurn.content).toContain("# Everything Server – Architecture");

    // A resource template: the menu offers its fixed part, the user types the id.
    t.type("read @dynamic/text");
    screen = await t.waitFor("demo://resource/dynamic/text/{resourceId}");
    t.press("Enter");
    t.type("7");
    await t.waitFor("read @everything:demo://resource/dynamic/text/7");
    t.press("Enter");
    await t.waitFor("Resource 7 read.");
    const templateTurn = fake.chats[3]!.messages.filter((m) => m.role === "user").at(-1)!;
    expect(templateTurn.content).toContain("Resource 7: This is a plaintext resource");

    // A long tool: progress in the status line, Esc cancels, the server is told.
    t.type("run the long one");
    t.press("Enter");
    await t.waitFor("Allow mcp__everything__trigger-long-running-operation?");
    t.press("y");
    screen = await t.waitFor(/trigger-long-running-operation .* · \d+\/30/, 15_000);
    t.press("Escape");
    await t.waitFor("interrupted");
    await waitUntil(
      () => readTap(log).sent.some((m) => m.method === "notifications/cancelled"),
      5_000,
      "notifications/cancelled to reach the server",
    );
    const tap = readTap(log);
    const call = tap.sent.find(
      (m) => m.method === "tools/call" && (m.params as { name: string }).name === "trigger-long-running-operation",
    )!;
    const cancelled = tap.sent.find((m) => m.method === "notifications/cancelled")!;
    expect((cancelled.params as { requestId: unknown }).requestId).toBe(call.id);

    // /mcp restart: a new process, the old one gone.
    t.type("/mcp restart everything");
    t.press("Enter");
    await t.waitFor("Restarting MCP server everything");
    await waitUntil(() => readTap(log).pids[0] !== first[0], 15_000, "the restarted server's tap");
    const second = readTap(log).pids;
    pids.push(...second);
    await waitUntil(
      () => first.every((pid) => !alive(pid)),
      5_000,
      `the old server (pids ${first.join(", ")}) to be gone`,
    );
    await t.waitFor("MCP: everything");

    t.press("C-d");
    await t.waitFor("[exit 0]");
    await waitUntil(
      () => second.every((pid) => !alive(pid)),
      5_000,
      `the server (pids ${second.join(", ")}) to be gone`,
    );
  });
});
