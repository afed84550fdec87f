// A tiny random-weights GGUF (llama architecture, byte-level BPE, ChatML template) so tests run the real
// engine offline. Layout and keys follow /work/shared/reference/gguf-tiny.md and llama.cpp's
// ggml/docs/gguf.md (ggml-org/ggml, docs/gguf.md).
import fs from "node:fs";
import { seededRandom } from "./seeded-random.js";

const UINT32 = 4;
const INT32 = 5;
const FLOAT32 = 6;
const STRING = 8;
const ARRAY = 9;
const ALIGN = 32;

type Value =
  | { t: "u32"; v: number }
  | { t: "f32"; v: number }
  | { t: "str"; v: string }
  | { t: "strs"; v: string[] }
  | { t: "i32s"; v: number[] };

class Out {
  private parts: Buffer[] = [];
  u32(n: number) {
    const b = Buffer.alloc(4);
    b.writeUInt32LE(n);
    this.parts.push(b);
  }
  u64(n: number) {
    const b = Buffer.alloc(8);
    b.writeBigUInt64LE(BigInt(n));
    this.parts.push(b);
  }
  str(s: string) {
    const b = Buffer.from(s, "utf8");
    this.u64(b.length);
    this.parts.push(b);
  }
  raw(b: Buffer) {
    this.parts.push(b);
  }
  value(v: Value) {
    switch (v.t) {
      case "u32":
        this.u32(UINT32);
        this.u32(v.v);
        return;
      case "f32": {
        this.u32(FLOAT32);
        const b = Buffer.alloc(4);
        b.writeFloatLE(v.v);
        this.parts.push(b);
        return;
      }
      case "str":
        this.u32(STRING);
        this.str(v.v);
        return;
      case "strs":
        this.u32(ARRAY);
        this.u32(STRING);
        this.u64(v.v.length);
        for (const s of v.v) this.str(s);
        return;
      case "i32s": {
        this.u32(ARRAY);
        this.u32(INT32);
        this.u64(v.v.length);
        const b = Buffer.alloc(4 * v.v.length);
        v.v.forEach((n, i) => b.writeInt32LE(n, i * 4));
        this.parts.push(b);
        return;
      }
    }
  }
  get length() {
    return this.parts.reduce((n, b) => n + b.length, 0);
  }
  buffer() {
    return Buffer.concat(this.parts);
  }
}

/** GPT-2's bytes-to-unicode table: every byte as a printable character (openai/gpt-2, src/encoder.py). */
function byteTokens(): string[] {
  const printable: number[] = [];
  for (let b = 33; b <= 126; b++) printable.push(b);
  for (let b = 161; b <= 172; b++) printable.push(b);
  for (let b = 174; b <= 255; b++) printable.push(b);
  const map = new Map<number, number>(printable.map((b) => [b, b]));
  let extra = 0;
  for (let b = 0; b < 256; b++) if (!map.has(b)) map.set(b, 256 + extra++);
  return Array.from({ length: 256 }, (_, b) => String.fromCodePoint(map.get(b)!));
}

const CHATML =
  "{% for message in messages %}{{'<|im_start|>' + message['role'] + '\\n' + message['content'] + '<|im_end|>' + '\\n'}}{% endfor %}{% if add_generation_prompt %}{{ '<|im_start|>assistant\\n' }}{% endif %}";

/**
 * ChatML that renders tools, as Qwen2.5's template does (`{%- if tools %}` … `<tools>` in the system turn;
 * huggingface.co/Qwen/Qwen2.5-Coder-7B-Instruct, tokenizer_config.json): the engine then speaks
 * node-llama-cpp's function calling, not agent0's JSON protocol.
 */
const CHATML_TOOLS =
  "{%- if tools %}{{- '<|im_start|>system\\n' }}{%- if messages[0]['role'] == 'system' %}{{- messages[0]['content'] }}{%- endif %}{{- '\\n\\n# Tools\\n\\n<tools>' }}{%- for tool in tools %}{{- '\\n' }}{{- tool | tojson }}{%- endfor %}{{- '\\n</tools><|im_end|>\\n' }}{%- endif %}" +
  CHATML;

export interface TinyGgufOptions {
  contextLength?: number;
  seed?: number;
  /** A chat template that renders tools (the engine's own function calling); default plain ChatML. */
  toolsTemplate?: boolean;
}

/** Writes the model to `file` and returns its size in bytes. */
export function writeTinyGguf(file: string, opts: TinyGgufOptions = {}): number {
  const n = 64;
  const f = 128;
  const blocks = 2;
  const heads = 4;
  const tokens = [...byteTokens(), "<|endoftext|>", "<|im_start|>", "<|im_end|>"];
  const v = tokens.length;
  const kv: [string, Value][] = [
    ["general.architecture", { t: "str", v: "llama" }],
    ["general.alignment", { t: "u32", v: ALIGN }],
    ["general.name", { t: "str", v: "agent0-tiny" }],
    ["llama.context_length", { t: "u32", v: opts.contextLength ?? 8192 }],
    ["llama.embedding_length", { t: "u32", v: n }],
    ["llama.block_count", { t: "u32", v: blocks }],
    ["llama.feed_forward_length", { t: "u32", v: f }],
    ["llama.attention.head_count", { t: "u32", v: heads }],
    ["llama.attention.head_count_kv", { t: "u32", v: heads }],
    ["llama.attention.layer_norm_rms_epsilon", { t: "f32", v: 1e-5 }],
    ["llama.rope.dimension_count", { t: "u32", v: n / heads }],
    ["llama.vocab_size", { t: "u32", v }],
    ["tokenizer.ggml.model", { t: "str", v: "gpt2" }],
    ["tokenizer.ggml.pre", { t: "str", v: "default" }],
    ["tokenizer.ggml.tokens", { t: "strs", v: tokens }],
    ["tokenizer.ggml.token_type", { t: "i32s", v: tokens.map((_, i) => (i < 256 ? 1 : 3)) }],
    ["tokenizer.ggml.merges", { t: "strs", v: [] }],
    ["tokenizer.ggml.bos_token_id", { t: "u32", v: 256 }],
    ["tokenizer.ggml.eos_token_id", { t: "u32", v: 258 }],
    ["tokenizer.ggml.padding_token_id", { t: "u32", v: 256 }],
    ["tokenizer.chat_template", { t: "str", v: opts.toolsTemplate ? CHATML_TOOLS : CHATML }],
  ];
  const tensors: [string, number[], "ones" | "random"][] = [
    ["token_embd.weight", [n, v], "random"],
    ["output_norm.weight", [n], "ones"],
    ["output.weight", [n, v], "random"],
  ];
  for (let i = 0; i < blocks; i++) {
    tensors.push(
      [`blk.${i}.attn_norm.weight`, [n], "ones"],
      [`blk.${i}.attn_q.weight`, [n, n], "random"],
      [`blk.${i}.attn_k.weight`, [n, n], "random"],
      [`blk.${i}.attn_v.weight`, [n, n], "random"],
      [`blk.${i}.attn_output.weight`, [n, n], "random"],
      [`blk.${i}.ffn_norm.weight`, [n], "ones"],
      [`blk.${i}.ffn_gate.weight`, [n, f], "random"],
      [`blk.${i}.ffn_down.weight`, [f, n], "random"],
      [`blk.${i}.ffn_up.weight`, [n, f], "random"],
    );
  }
  const out = new Out();
  out.raw(Buffer.from("GGUF"));
  out.u32(3);
  out.u64(tensors.length);
  out.u64(kv.length);
  for (const [key, value] of kv) {
    out.str(key);
    out.value(value);
  }
  const rand = seededRandom(opts.seed ?? 1);
  const data: Buffer[] = [];
  let offset = 0;
  for (const [name, dims, fill] of tensors) {
    const count = dims.reduce((a, b) => a * b, 1);
    out.str(name);
    out.u32(dims.length);
    for (const d of dims) out.u64(d);
    out.u32(0);
    out.u64(offset);
    const b = Buffer.alloc(Math.ceil((count * 4) / ALIGN) * ALIGN);
    for (let i = 0; i < count; i++) b.writeFloatLE(fill === "ones" ? 1 : (rand() - 0.5) * 0.2, i * 4);
    data.push(b);
    offset += b.length;
  }
  const pad = (ALIGN - (out.length % ALIGN)) % ALIGN;
  out.raw(Buffer.alloc(pad));
  for (const b of data) out.raw(b);
  const bytes = out.buffer();
  fs.writeFileSync(file, bytes);
  return bytes.length;
}
