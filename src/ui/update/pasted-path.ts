// A file dragged into a terminal arrives as a paste of its path: quoted, or with backslash-escaped
// spaces, or as a file:// URL, depending on the terminal. A paste that is nothing but paths of
// images becomes `@path` mentions, so the images are attached as if typed with `@` (Claude Code
// attaches a dragged image too). Pure: whether the files exist is learnt when the line is sent.
import { mentionOf } from "../../context/mention-parse.js";

const IMAGE_NAME = /\.(png|jpe?g|gif|webp)$/i;

/** The words of `text` as a shell splits them: quotes and backslashes escape; undefined when a quote is open. */
function shellWords(text: string): string[] | undefined {
  const words: string[] = [];
  let word: string | null = null;
  let quote: "'" | '"' | null = null;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quote) {
      if (c === quote) quote = null;
      else if (c === "\\" && quote === '"' && (text[i + 1] === '"' || text[i + 1] === "\\")) word += text[++i]!;
      else word += c;
    } else if (/\s/.test(c)) {
      if (word !== null) words.push(word);
      word = null;
    } else if (c === "'" || c === '"') {
      quote = c;
      word ??= "";
    } else if (c === "\\" && i + 1 < text.length) {
      word = (word ?? "") + text[++i]!;
    } else {
      word = (word ?? "") + c;
    }
  }
  if (quote) return undefined;
  if (word !== null) words.push(word);
  return words;
}

/** A file:// URL as its path (percent-decoded); any other word as it is. */
function fromFileUrl(word: string): string | undefined {
  const url = /^file:\/\/(?:localhost)?(\/.*)$/i.exec(word);
  if (!url) return word;
  try {
    return decodeURIComponent(url[1]!);
  } catch {
    return undefined;
  }
}

/** The image paths a paste is made of, or undefined when it is anything else (it stays text). */
export function pastedImagePaths(text: string): string[] | undefined {
  const words = shellWords(text.trim());
  if (!words?.length) return undefined;
  const paths = words.map(fromFileUrl);
  return paths.every((p): p is string => p !== undefined && IMAGE_NAME.test(p) && !p.startsWith("@"))
    ? paths
    : undefined;
}

/**
 * What a paste puts in the input: its images' paths as mentions (spaced from a word before the
 * cursor, and followed by a space), or undefined when it is no such paste.
 */
export function pastedImageMentions(text: string, before: string): string | undefined {
  const mentions = pastedImagePaths(text)?.map(mentionOf);
  if (!mentions || mentions.some((m) => m === undefined)) return undefined;
  return `${before && !/\s$/.test(before) ? " " : ""}${mentions.join(" ")} `;
}
