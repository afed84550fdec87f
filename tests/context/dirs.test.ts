import { describe, expect, it } from "vitest";
import { configDir, dataDir, logsDir, sessionsDir } from "../../src/context/dirs.js";

describe("where agent0 keeps its files", () => {
  it("follows XDG_DATA_HOME and XDG_CONFIG_HOME", () => {
    const env = { HOME: "/home/ada", XDG_DATA_HOME: "/xdg/data", XDG_CONFIG_HOME: "/xdg/config" };
    expect(dataDir(env)).toBe("/xdg/data/agent0");
    expect(configDir(env)).toBe("/xdg/config/agent0");
    expect(sessionsDir(env)).toBe("/xdg/data/agent0/sessions");
    expect(logsDir(env)).toBe("/xdg/data/agent0/logs");
  });

  it("falls back to ~/.local/share and ~/.config, also for relative XDG paths", () => {
    const env = { HOME: "/home/ada", XDG_DATA_HOME: "relative", XDG_CONFIG_HOME: "" };
    expect(dataDir(env)).toBe("/home/ada/.local/share/agent0");
    expect(configDir(env)).toBe("/home/ada/.config/agent0");
    expect(sessionsDir(env)).toBe("/home/ada/.local/share/agent0/sessions");
  });
});
