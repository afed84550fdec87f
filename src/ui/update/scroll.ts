import type { Model } from "../model.js";
import { transcriptLineCount } from "../view/transcript.js";
import { transcriptHeight } from "../layout.js";

/** Scrolls by n lines (positive = up, into history), kept within the transcript. */
export function scrollBy(model: Model, n: number): void {
  const height = transcriptHeight(model);
  const wanted = Math.max(0, model.scroll + n);
  // Count only as far back as needed: cost follows the scroll distance, not the transcript.
  const total = transcriptLineCount(model, model.width, wanted + height);
  model.scroll = Math.max(0, Math.min(wanted, total - height));
}

export function scrollToTop(model: Model): void {
  scrollBy(model, Number.MAX_SAFE_INTEGER / 2);
}
