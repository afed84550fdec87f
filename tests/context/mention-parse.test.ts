import { describe, expect, it } from "vitest";
import { fileMentionsIn, mentionsIn, resourceMentionsIn } from "../../src/context/mention-parse.js";

describe("mentions", () => {
  const servers = ["everything", "db"];
  it.each([
    ["read @src/a.ts.", ["src/a.ts"], []],
    ["mail bob@host.com", [], []],
    ["@everything:demo://doc/a.md, then @db:table://users!", [], ["everything|demo://doc/a.md", "db|table://users"]],
    ["@other:thing is a file to us", ["other:thing"], []],
    ["@src/a.ts and @everything:x://1 and @everything:x://1", ["src/a.ts"], ["everything|x://1"]],
  ])("%s", (text, files, resources) => {
    expect(fileMentionsIn(text, servers)).toEqual(files);
    expect(resourceMentionsIn(text, servers).map((r) => `${r.server}|${r.uri}`)).toEqual(resources);
    // Every mention is one or the other.
    expect(mentionsIn(text).length).toBeGreaterThanOrEqual(files.length + resources.length);
  });
});
