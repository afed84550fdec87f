// A file dragged into a terminal arrives as a bracketed paste of its path, in the terminal's own
// form: iTerm2 and macOS Terminal escape spaces with backslashes, GNOME Terminal and Windows
// Terminal quote, kitty and others paste a file:// URL. Claude Code attaches a dragged image (its
// issue anthropics/claude-code#48153 describes the expected "[Image #1]" for exactly this paste);
// agent0 turns the path into an `@` mention, read when the line is sent.
import { describe, expect, it } from "vitest";
import type { Cmd } from "../../src/ui/msg.js";
import { pastedImageMentions, pastedImagePaths } from "../../src/ui/update/pasted-path.js";
import { mentionsIn } from "../../src/context/mention-parse.js";
import { init } from "../../src/ui/update/index.js";
import { feed, key, newModel, testConfig, typeText } from "./helpers.js";

describe("a pasted path to an image", () => {
  it.each([
    [
      "/Users/me/Desktop/Screenshot\\ 2026-04-14\\ at\\ 4.35.10\\ PM.png",
      ["/Users/me/Desktop/Screenshot 2026-04-14 at 4.35.10 PM.png"],
    ],
    ["'/home/me/Pictures/my shot.jpg'", ["/home/me/Pictures/my shot.jpg"]],
    ['"/home/me/a b.webp" ', ["/home/me/a b.webp"]],
    ["file:///home/me/Pictures/my%20shot.PNG", ["/home/me/Pictures/my shot.PNG"]],
    ["docs/diagram.gif", ["docs/diagram.gif"]],
    ["./a.jpeg ../b.png", ["./a.jpeg", "../b.png"]],
  ])("%s is an image path", (text, paths) => {
    expect(pastedImagePaths(text)).toEqual(paths);
  });

  it.each([
    ["/home/me/notes.txt"],
    ["look at shot.png"],
    ["/home/me/a.png /home/me/b.pdf"],
    ["'/home/me/open quote.png"],
    ["@pic.png"],
    [""],
  ])("%s stays text", (text) => {
    expect(pastedImagePaths(text)).toBeUndefined();
  });

  it("becomes mentions that read back as the same paths", () => {
    const typed = pastedImageMentions("/tmp/a\\ b.png /tmp/c.png", "what is in")!;
    expect(typed).toBe(' @"/tmp/a b.png" @/tmp/c.png ');
    expect(mentionsIn(`what is in${typed}?`)).toEqual(["/tmp/a b.png", "/tmp/c.png"]);
  });

  it("in the input, it is sent like a typed @path (the files are read first)", () => {
    let { model } = feed(newModel(), ...typeText("what is in"));
    ({ model } = feed(model, { type: "paste", text: "'/home/me/Desktop/my shot.png'" }));
    expect(model.input.text).toBe('what is in @"/home/me/Desktop/my shot.png" ');
    const { cmds } = feed(model, key("enter"));
    expect(
      cmds.find((c): c is Extract<Cmd, { type: "read-mentions" }> => c.type === "read-mentions")?.mentions,
    ).toEqual(["/home/me/Desktop/my shot.png"]);
  });

  it("a pasted path to another file stays text", () => {
    const { model } = feed(newModel(), { type: "paste", text: "/home/me/notes.txt" });
    expect(model.input.text).toBe("/home/me/notes.txt");
  });
});

describe("attached images on their way to the model", () => {
  const read = (seesImages: boolean | undefined) => {
    const model = init({ width: 80, height: 24, now: 1000, config: { ...testConfig(), seesImages }, sessionId: "s1" });
    return feed(model, {
      type: "mentions-read",
      text: "what is @a.png",
      content: 'what is @a.png\n\n<attached image="a.png"/>',
      attached: ["a.png"],
      problems: [],
      images: [{ mimeType: "image/png", data: "iVBORw0KGgo=" }],
    });
  };
  const run = (cmds: Cmd[]) => cmds.find((c) => c.type === "worker" && c.command.type === "run");

  it("a model known not to see: not sent, the notice names /model, the line stays", () => {
    const { model, cmds } = read(false);
    expect(run(cmds)).toBeUndefined();
    expect(model.input.text).toBe("what is @a.png");
  });

  it("a model not known yet: sent, and the worker asks the server before the image goes", () => {
    const sent = run(read(undefined).cmds);
    expect(
      sent?.type === "worker" && sent.command.type === "run" && sent.command.conversation.at(-1)!.images,
    ).toHaveLength(1);
  });
});
