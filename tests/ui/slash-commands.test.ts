import { describe, expect, it } from "vitest";
import { formatHelp, slashCommands, unknownCommandHint } from "../../src/ui/slash-commands.js";

describe("slash commands", () => {
  it("include every command the issue lists", () => {
    expect(slashCommands.map((c) => (c.args ? `/${c.name} ${c.args}` : `/${c.name}`))).toEqual([
      "/help",
      "/model [name]",
      "/new",
      "/clear",
      "/sessions",
      "/resume <id>",
      "/context",
      "/compact",
      "/skills",
      "/memory",
      "/permissions [mode|remove <n>]",
      "/agents",
      "/hooks",
      "/init",
      "/thinking [level [save]]",
      "/theme [dark|light|ansi16]",
      "/mcp [restart|trust|untrust <name>]",
      "/plugins [enable|disable|trust|untrust <name>]",
      "/undo",
      "/rewind",
      "/add-dir [path]",
      "/diff",
      "/review [staged|<base>]",
      "/export [file]",
      "/cost",
      "/jobs [kill <id>]",
      "/doctor",
      "/quit",
    ]);
  });

  it("formatHelp lists commands then skills in aligned columns", () => {
    const help = formatHelp(
      [
        { name: "help", help: "list commands" },
        { name: "resume", args: "<id>", help: "resume a session" },
      ],
      [{ name: "explain", description: "Explain code", params: ["target"] }],
    );
    expect(help).toBe(
      [
        "Commands:",
        "  /help              list commands",
        "  /resume <id>       resume a session",
        "",
        "Skills:",
        "  /explain <target>  Explain code",
      ].join("\n"),
    );
    expect(formatHelp([], [])).toBe("Commands:\n\nSkills:\n  (none)");
  });

  it("hints at the closest command for an unknown one", () => {
    const names = slashCommands.map((c) => c.name);
    expect(unknownCommandHint("hlep", names)).toBe(
      "Unknown command /hlep — did you mean /help? Type /help for the list.",
    );
    expect(unknownCommandHint("res", names)).toBe(
      "Unknown command /res — did you mean /resume? Type /help for the list.",
    );
    expect(unknownCommandHint("zzzzzz", names)).toBe("Unknown command /zzzzzz. Type /help for the list.");
  });
});

describe("/help and /context say everything", () => {
  it("/help lists the keys after the commands", async () => {
    const { feed, newModel, typeText, key, strip } = await import("./helpers.js");
    const { model } = feed(newModel({ height: 80 }), ...typeText("/help"), key("enter"));
    const notice = model.entries.at(-1)!;
    const text = notice.kind === "notice" ? strip(notice.text) : "";
    expect(text).toContain("Keys:");
    expect(text).toMatch(/Ctrl\+O\s+show or fold tool output/);
    expect(text).toMatch(/Ctrl\+W, Alt\+Backspace\s+delete the word/);
  });
});
