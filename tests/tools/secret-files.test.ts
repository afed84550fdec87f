// Secrets in the project's own files (issue 29, part 3): `KEY=value` wherever a program puts it on
// a line, and files that are secrets by name, keys shown and values masked.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { maskSecrets } from "../../src/safety/secrets.js";
import { isSecretFileName, maskSecretFile, projectSecretValues } from "../../src/safety/secret-files.js";
import { makeCtx, project } from "./ctx.js";
import { callTool } from "./call.js";

const V = "CanaryVal9x7";

describe("NAME=value secrets after a prefix", () => {
  // Each form is what the named program prints for a `.env` line `API_KEY=CanaryVal9x7`.
  const cases: [string, string][] = [
    ["read_file / cat -n", `     1\tAPI_KEY=${V}`],
    ["grep -n", `1:API_KEY=${V}`],
    ["grep -r", `./.env:API_KEY=${V}`],
    ["grep -rn", `./config/.env:3:API_KEY=${V}`],
    ["grep -rn context (-C)", `app/.env.local-4-API_KEY=${V}`],
    ["diff", `< API_KEY=${V}`],
    ["diff -u", `+API_KEY=${V}`],
    ["export, quoted", `  2\texport API_KEY="${V}"`],
    ["YAML after grep", `deploy.yml:7:  password: ${V}`],
    ["on a command line", `curl -H X-Auth -d API_TOKEN=${V} https://x`],
    [".npmrc", `//registry.npmjs.org/:_authToken=${V}`],
  ];
  it.each(cases)("%s", (_what, line) => {
    const masked = maskSecrets(line, {});
    expect(masked).not.toContain(V);
    expect(masked).toContain("****");
  });

  it("leaves code that only names a secret alone", () => {
    for (const code of [
      "     3\tconst token = getToken(user);",
      `  4\tAPI_KEY = os.environ["API_KEY"]`,
      "src/a.ts:9:  const apiKey = config.apiKey;",
      "PORT=3000",
    ])
      expect(maskSecrets(code, {})).toBe(code);
  });
});

describe("files that are secrets by name", () => {
  it("knows them by name", () => {
    for (const f of [
      ".env",
      ".env.local",
      "prod.env",
      "a/b/server.pem",
      "id_rsa",
      "id_ed25519",
      ".npmrc",
      ".git-credentials",
      "credentials",
    ])
      expect({ f, secret: isSecretFileName(f) }).toEqual({ f, secret: true });
    for (const f of ["env.ts", "id_utils.py", "README.md", "credentials.ts", "key.ts"])
      expect({ f, secret: isSecretFileName(f) }).toEqual({ f, secret: false });
  });

  it("shows keys, comments and PEM armour, never values", () => {
    const text = [
      "# database",
      "DB_HOST=db.internal.example",
      "NODE_ENV=production",
      "[default]",
      "aws_access_key_id = AKIAIOSFODNN7EXAMPLE",
      "-----BEGIN OPENSSH PRIVATE KEY-----",
      "b3BlbnNzaC1rZXktdjEAAAAABG5vbmU",
      "-----END OPENSSH PRIVATE KEY-----",
      "https://user:ghp_abc123@github.com",
      "",
    ].join("\n");
    expect(maskSecretFile(text)).toBe(
      [
        "# database",
        "DB_HOST=****",
        "NODE_ENV=****",
        "[default]",
        "aws_access_key_id = ****",
        "-----BEGIN OPENSSH PRIVATE KEY-----",
        "****",
        "-----END OPENSSH PRIVATE KEY-----",
        "https:****",
        "",
      ].join("\n"),
    );
  });

  it("a grep line of a secret file is masked whatever its key", () => {
    expect(maskSecrets("deploy/id_ed25519:2:b3BlbnNzaC1rZXkCanary", {})).toBe("deploy/id_ed25519:2:****");
    expect(maskSecrets(".env:1:DB_HOST=db.internal.example", {})).toBe(".env:1:DB_HOST=****");
    expect(maskSecrets("src/env.ts:1:const host = 1", {})).toBe("src/env.ts:1:const host = 1");
  });

  it("the values of the project's top secret files are masked in any spelling a command prints", () => {
    const dir = project({ ".env": "DB_HOST=db7.internal.example\nNODE_ENV=production\nPORT=3000\n" });
    fs.writeFileSync(path.join(dir, ".npmrc"), "//r/:_authToken=npm_Canary1234\n");
    const values = projectSecretValues(dir);
    expect(values.sort()).toEqual(["db7.internal.example", "npm_Canary1234"]);
    const out = maskSecrets(`host is ${[..."db7.internal.example"].reverse().join("")} in production`, {}, values);
    expect(out).toBe("host is **** in production");
  });

  it("a shell command that names a secret file shows its keys, not its values, whatever their names", async () => {
    const dir = project({ "config/.env.production": "DB_HOST=db7.internal.example\nREGION=eu-west-1\n# note\n" });
    for (const command of [
      "cat config/.env.production",
      "head -5 ./config/.env.production",
      "sort < config/.env.production",
    ]) {
      const r = await callTool(makeCtx(dir), "run_shell_command", { command });
      expect({ command, content: r.content }).toEqual({
        command,
        content: expect.stringMatching(/DB_HOST=\*\*\*\*\n/),
      });
      expect(r.content).not.toContain("db7.internal.example");
      expect(r.content).not.toContain("eu-west-1");
    }
  });
});
