// The sandbox's seccomp filter, as classic BPF built here (no native build step): `socket(AF_UNIX, …)`
// fails with EPERM, so a sandboxed command cannot connect to a host service's socket file (ssh-agent,
// gpg-agent, docker.sock, D-Bus) that a read-only bind still leaves connectable. socketpair() stays
// (pipes between a command's own processes), and so does every other call but io_uring, which can
// open and connect sockets by itself. bubblewrap loads it (`--seccomp FD`), after setting no_new_privs.
//
// Layout from linux/seccomp.h and linux/filter.h: struct seccomp_data { int nr; __u32 arch;
// __u64 instruction_pointer; __u64 args[6]; }, struct sock_filter { __u16 code; __u8 jt; __u8 jf; __u32 k; }.

const LD_W_ABS = 0x20; // BPF_LD | BPF_W | BPF_ABS
const JEQ_K = 0x15; // BPF_JMP | BPF_JEQ | BPF_K
const JGE_K = 0x35; // BPF_JMP | BPF_JGE | BPF_K
const RET_K = 0x06; // BPF_RET | BPF_K

const OFFSET_NR = 0;
const OFFSET_ARCH = 4;
/** The low 32 bits of args[0] (little-endian machines: x86 and arm64): socket()'s domain is an int. */
const OFFSET_ARG0 = 16;

const SECCOMP_RET_ALLOW = 0x7fff0000;
const SECCOMP_RET_ERRNO = 0x00050000;
const EPERM = 1;
const AF_UNIX = 1;
/** x32 system calls on x86_64 carry this bit: they are refused whole, as other filters do. */
const X32_SYSCALL_BIT = 0x40000000;

/** io_uring_setup, io_uring_enter, io_uring_register: the same numbers on every architecture here. */
const IO_URING = [425, 426, 427];

/** Per architecture (AUDIT_ARCH_*): the number of socket(), and of socketcall() where it exists. */
const ARCHES: { arch: number; socket: number; socketcall?: number; x32?: boolean }[] = [
  { arch: 0xc000003e, socket: 41, x32: true }, // x86_64
  { arch: 0x40000003, socket: 359, socketcall: 102 }, // i386 (32-bit programs on x86_64)
  { arch: 0xc00000b7, socket: 198 }, // aarch64
  { arch: 0x40000028, socket: 281 }, // arm (32-bit programs on aarch64)
];

type Insn = { code: number; jt?: string; jf?: string; k: number; label?: string };

function assemble(program: Insn[]): Buffer {
  const at = new Map<string, number>();
  program.forEach((insn, i) => insn.label && at.set(insn.label, i));
  const out = Buffer.alloc(program.length * 8);
  program.forEach((insn, i) => {
    // Jumps are relative to the next instruction; undefined means "the next one".
    const rel = (label: string | undefined) => (label === undefined ? 0 : at.get(label)! - i - 1);
    out.writeUInt16LE(insn.code, i * 8);
    out.writeUInt8(rel(insn.jt), i * 8 + 2);
    out.writeUInt8(rel(insn.jf), i * 8 + 3);
    out.writeUInt32LE(insn.k >>> 0, i * 8 + 4);
  });
  return out;
}

/** The filter as the bytes bubblewrap reads from its --seccomp fd. */
export function unixSocketFilter(): Buffer {
  const program: Insn[] = [{ code: LD_W_ABS, k: OFFSET_ARCH }];
  ARCHES.forEach((a, i) =>
    program.push({ code: JEQ_K, k: a.arch, jt: `arch${i}`, ...(i === ARCHES.length - 1 ? { jf: "allow" } : {}) }),
  );
  ARCHES.forEach((a, i) => {
    program.push({ code: LD_W_ABS, k: OFFSET_NR, label: `arch${i}` });
    if (a.x32) program.push({ code: JGE_K, k: X32_SYSCALL_BIT, jt: "deny" });
    // io_uring can open and connect sockets without the socket() call (IORING_OP_SOCKET, _CONNECT).
    for (const nr of IO_URING) program.push({ code: JEQ_K, k: nr, jt: "deny" });
    // socketcall() hides its arguments in memory, where a filter cannot look: refused whole.
    if (a.socketcall !== undefined) program.push({ code: JEQ_K, k: a.socketcall, jt: "deny" });
    program.push({ code: JEQ_K, k: a.socket, jt: "domain", jf: "allow" });
  });
  program.push(
    { code: LD_W_ABS, k: OFFSET_ARG0, label: "domain" },
    { code: JEQ_K, k: AF_UNIX, jt: "deny", jf: "allow" },
    { code: RET_K, k: SECCOMP_RET_ALLOW, label: "allow" },
    { code: RET_K, k: SECCOMP_RET_ERRNO | EPERM, label: "deny" },
  );
  return assemble(program);
}
