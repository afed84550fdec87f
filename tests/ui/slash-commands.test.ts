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
      "/permissions [mode]",
      "/init",
      "/thinking",
      "/mcp",
      "/undo",
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
