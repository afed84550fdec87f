// A YAML-ish block of `key: value` lines read into an object, for models that write their call
// the way their prompt showed it in YAML (AutoGPT.js's YAML_SCHEMA: `command:` / `  name:` /
// `  args:`). Only what a call needs: nested mappings by indentation, scalars, `|` blocks and
// flow values in JSON. A list, or any line of another shape, ends the block.
import { isRecord, parseLenientJson } from "../../providers/lenient-json.js";
import { parameterValue } from "./call-args.js";

export interface YamlBlock {
  value: Record<string, unknown>;
  /** Offset just after the block's last line. */
  end: number;
}

const KEY_LINE = /^( *)([A-Za-z_][\w-]*):(?:[ \t]+(.*?))?[ \t]*$/;

/** The mapping whose first line starts at `start`, or undefined when fewer than two lines read. */
export function readYamlBlock(text: string, start: number): YamlBlock | undefined {
  const lines: { indent: number; key: string; value: string | undefined; end: number }[] = [];
  const raw: { text: string; end: number }[] = [];
  for (let at = start; at < text.length;) {
    const nl = text.indexOf("\n", at);
    const end = nl < 0 ? text.length : nl;
    raw.push({ text: text.slice(at, end), end });
    at = end + 1;
  }
  let i = 0;
  const block = (indent: number): Record<string, unknown> => {
    const out: Record<string, unknown> = {};
    while (i < raw.length) {
      const m = KEY_LINE.exec(raw[i]!.text);
      if (!m || m[1]!.length !== indent) break;
      const line = { indent, key: m[2]!, value: m[3], end: raw[i]!.end };
      lines.push(line);
      i++;
      if (line.value === "|" || line.value === ">") out[line.key] = blockScalar(indent);
      else if (line.value !== undefined) out[line.key] = scalar(line.value);
      else {
        const next = raw[i] ? KEY_LINE.exec(raw[i]!.text) : null;
        out[line.key] = next && next[1]!.length > indent ? block(next[1]!.length) : null;
      }
    }
    return out;
  };
  const blockScalar = (indent: number): string => {
    const body: string[] = [];
    while (i < raw.length && raw[i]!.text.search(/\S/) > indent) {
      body.push(raw[i]!.text.trim());
      lines.push({ indent, key: "", value: "", end: raw[i]!.end });
      i++;
    }
    return body.join("\n");
  };
  const first = KEY_LINE.exec(raw[0]?.text ?? "");
  if (!first) return undefined;
  const value = block(first[1]!.length);
  return lines.length >= 2 ? { value, end: lines[lines.length - 1]!.end } : undefined;
}

function scalar(raw: string): unknown {
  const t = raw.trim();
  if (/^["[{]/.test(t)) {
    const parsed = parseLenientJson(t);
    if (parsed.ok && (typeof parsed.value === "string" || Array.isArray(parsed.value) || isRecord(parsed.value)))
      return parsed.value;
  }
  if (/^'.*'$/.test(t)) return t.slice(1, -1).replace(/''/g, "'");
  return parameterValue(t);
}
