// The first step of `npm test`: the system programs the tests run, checked in well under a second,
// so a fresh machine hears what to install now and not from a test that fails minutes later.
// Exit 0 when all are there; else the list, the command that installs them here, and exit 1.
import { spawnSync } from "node:child_process";
import os from "node:os";

const linux = process.platform === "linux";

/** What the tests use, why, and each package manager's name for it. */
const NEEDED = [
  {
    bin: "tmux",
    why: "end-to-end tests drive the app in a real terminal",
    pkg: { apt: "tmux", dnf: "tmux", brew: "tmux", pacman: "tmux", apk: "tmux", zypper: "tmux" },
  },
  {
    bin: "git",
    why: "git facts, /diff and the hostile-repository tests",
    pkg: { apt: "git", dnf: "git", brew: "git", pacman: "git", apk: "git", zypper: "git" },
  },
  {
    bin: "python3",
    why: "a terminal in between (tests/e2e/fixtures/term-proxy.py)",
    pkg: { apt: "python3", dnf: "python3", brew: "python", pacman: "python", apk: "python3", zypper: "python3" },
  },
  {
    bin: "ps",
    why: "the environment reads of the security tests",
    pkg: { apt: "procps", dnf: "procps-ng", brew: null, pacman: "procps-ng", apk: "procps", zypper: "procps" },
  },
  {
    bin: "pgrep",
    why: "the process checks of the containment tests",
    pkg: { apt: "procps", dnf: "procps-ng", brew: null, pacman: "procps-ng", apk: "procps", zypper: "procps" },
  },
  // Linux only: the sandbox and the pid namespace (macOS has neither; those tests are skipped there).
  ...(linux
    ? [
        {
          bin: "bwrap",
          why: "the sandbox and pid-namespace tests (the fallback without it is tested too)",
          pkg: {
            apt: "bubblewrap",
            dnf: "bubblewrap",
            brew: null,
            pacman: "bubblewrap",
            apk: "bubblewrap",
            zypper: "bubblewrap",
          },
        },
      ]
    : []),
];

// As root (a container, CI) there is no sudo to go through.
const sudo = process.getuid?.() === 0 ? "" : "sudo ";
const has = (bin) => spawnSync("sh", ["-c", `command -v ${bin}`], { stdio: "ignore" }).status === 0;

const MANAGERS = [
  ["apt", "apt-get", (p) => `${sudo}apt-get install -y ${p}`],
  ["dnf", "dnf", (p) => `${sudo}dnf install -y ${p}`],
  ["brew", "brew", (p) => `brew install ${p}`],
  ["pacman", "pacman", (p) => `${sudo}pacman -S --needed ${p}`],
  ["apk", "apk", (p) => `${sudo}apk add ${p}`],
  ["zypper", "zypper", (p) => `${sudo}zypper install -y ${p}`],
];

const missing = NEEDED.filter((n) => !has(n.bin));
const problems = missing.map((n) => `  ${n.bin}: ${n.why}`);

// bwrap present but refused by the system (no user namespaces: some containers, hardened kernels).
if (linux && !missing.some((n) => n.bin === "bwrap")) {
  const probe = spawnSync("bwrap", ["--ro-bind", "/", "/", "--unshare-pid", "true"], {
    encoding: "utf8",
    timeout: 5000,
  });
  if (probe.status !== 0)
    problems.push(
      `  bwrap cannot make a namespace here: ${(probe.stderr || probe.error?.message || "").trim()}\n` +
        "    (allow unprivileged user namespaces, e.g. sysctl kernel.unprivileged_userns_clone=1, or run the tests in a VM)",
    );
}

if (problems.length) {
  const manager = MANAGERS.find(([, bin]) => has(bin));
  const lines = ["agent0's tests need programs this machine lacks:", ...problems];
  if (missing.length && manager) {
    const [key, , install] = manager;
    const pkgs = [...new Set(missing.map((n) => n.pkg[key]).filter(Boolean))];
    if (pkgs.length) lines.push("", `Install them with:  ${install(pkgs.join(" "))}`);
  } else if (missing.length) {
    lines.push(
      "",
      `Install them with your system's package manager (${os.platform()}): ${missing.map((n) => n.bin).join(", ")}`,
    );
  }
  process.stderr.write(lines.join("\n") + "\n");
  process.exit(1);
}
