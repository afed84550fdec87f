import { describe, expect, it } from "vitest";
import { maskSecrets, scrubEnv } from "../../src/safety/secrets.js";

describe("maskSecrets", () => {
  const env = {
    OPENAI_API_KEY: "sk-abcdef123",
    GITHUB_TOKEN: "ghp_tokenvalue",
    DB_PASSWORD: "hunter22",
    APP_SECRET: "s3cr3t-value",
    lower_api_key: "lowercase-secret",
    SHORT_TOKEN: "abc",
    HOME: "/home/someone",
    KEYBOARD: "qwerty-layout",
  };

  it("replaces values of *KEY, *TOKEN, *SECRET and *PASSWORD variables", () => {
    const text = "sk-abcdef123 ghp_tokenvalue hunter22 s3cr3t-value lowercase-secret";
    expect(maskSecrets(text, env)).toBe("**** **** **** **** ****");
  });

  it("leaves short values and other variables alone", () => {
    expect(maskSecrets("abc /home/someone qwerty-layout", env)).toBe("abc /home/someone qwerty-layout");
  });

  it("masks every occurrence, and a secret containing another one whole", () => {
    expect(maskSecrets("x=sk-abcdef123;y=sk-abcdef123", env)).toBe("x=****;y=****");
    expect(maskSecrets("long-abcdef-tail", { A_KEY: "abcdef", B_KEY: "long-abcdef-tail" })).toBe("****");
  });

  it("masks any piece of 8+ characters of a secret, and its reversed, base64 and hex spellings", () => {
    const e = { GITHUB_TOKEN: "ghp_R3allyS3cretTokenValue42" };
    const value = e.GITHUB_TOKEN;
    const spelled = [
      value.slice(4, 20),
      value.slice(10),
      [...value].reverse().join(""),
      Buffer.from(value).toString("base64"),
      Buffer.from(`x${value}`).toString("base64"),
      Buffer.from(value).toString("hex"),
    ];
    // base64 groups at the edges mix in other bytes: at most 4 characters stay on each side.
    for (const s of spelled)
      expect({ s, out: maskSecrets(`got ${s} here`, e) }).toEqual({
        s,
        out: expect.stringMatching(/^got \S{0,4}\*{4}\S{0,4} here$/),
      });
    // Short fragments stay: they are ordinary text.
    expect(maskSecrets("ghp_R3a", e)).toBe("ghp_R3a");
  });

  it("masks .env-style lines whose name looks secret, and passwords in URLs", () => {
    const dotenv = [
      "STRIPE_SECRET_KEY=sk_test_abcdefgh",
      'export DB_PASSWORD="correct-horse"',
      "PORT=8080",
      "APP_NAME=my-application",
      "DATABASE_URL=postgres://app:pa55word99@db.internal:5432/app",
    ].join("\n");
    expect(maskSecrets(dotenv, {})).toBe(
      [
        "STRIPE_SECRET_KEY=****",
        'export DB_PASSWORD="****"',
        "PORT=8080",
        "APP_NAME=my-application",
        "DATABASE_URL=****",
      ].join("\n"),
    );
    expect(maskSecrets("connect to redis://default:hunter2hunter@cache:6379 now", {})).toBe(
      "connect to redis://default:****@cache:6379 now",
    );
  });
});

describe("scrubEnv", () => {
  it("drops secret-looking variables and URLs with passwords, keeps the rest and what the user allows", () => {
    const env = {
      PATH: "/usr/bin",
      HOME: "/home/me",
      GITHUB_TOKEN: "ghp_x",
      AWS_SECRET_ACCESS_KEY: "a",
      AWS_ACCESS_KEY_ID: "b",
      OPENAI_API_KEY: "c",
      GOOGLE_APPLICATION_CREDENTIALS: "/x.json",
      DATABASE_URL: "postgres://u:p@h/db",
      REDIS: "redis://u:longpassword@h",
      NPM_TOKEN: "d",
      KEYBOARD: "us",
      GIT_AUTHOR_NAME: "me",
    };
    expect(scrubEnv(env)).toEqual({ PATH: "/usr/bin", HOME: "/home/me", KEYBOARD: "us", GIT_AUTHOR_NAME: "me" });
    expect(scrubEnv(env, ["NPM_TOKEN"])).toHaveProperty("NPM_TOKEN", "d");
  });
});

// Issue 40: every line shape a secret value is read in, numbered as programs number lines. Each row
// is a value no environment knows: only the line rules can mask it. Removing the line-number
// prefix from the rule (src/safety/secrets.ts LINE_PREFIX) turns the numbered rows red.
describe("secret lines, with the prefixes programs put before them", () => {
  const V = "hunter2hunter";
  it.each([
    ["yaml key: value", `password: ${V}`],
    ["cat -n / read_file (spaces, number, tab)", `     7\tpassword: ${V}`],
    ["cat -n of a .env line", `    12\tDB_PASSWORD=${V}`],
    ["nl -ba", `     3\tapi_key: ${V}`],
    ["grep -n", `7:password: ${V}`],
    ["grep -n of a file", `config.yml:7:password: ${V}`],
    ["grep -A context line", `config.yml-8-secret_key: ${V}`],
    ["diff's new line", `> password: ${V}`],
    ["unified diff's added line", `+password: ${V}`],
    ["export with quotes, numbered", `     2\texport API_TOKEN="${V}"`],
  ])("%s", (_shape, line) => {
    const masked = maskSecrets(line, {});
    expect(masked).not.toContain(V);
    expect(masked).toContain("****");
  });
});
