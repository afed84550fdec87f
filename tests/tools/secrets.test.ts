import { describe, expect, it } from "vitest";
import { maskSecrets } from "../../src/tools/secrets.js";

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
});
