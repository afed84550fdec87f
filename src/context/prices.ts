// What hosted models cost, for /cost. US dollars per million tokens (input, output), from the
// providers' public price lists: anthropic.com/pricing and openai.com/api/pricing (2025). Cached and
// batch rates are left out, so the figure is an upper estimate. Unknown models get no figure.
const PRICES: [prefix: string, input: number, output: number][] = [
  ["claude-opus-4-5", 5, 25],
  ["claude-opus-4", 15, 75],
  ["claude-sonnet-4", 3, 15],
  ["claude-3-7-sonnet", 3, 15],
  ["claude-3-5-sonnet", 3, 15],
  ["claude-haiku-4-5", 1, 5],
  ["claude-3-5-haiku", 0.8, 4],
  ["gpt-5-mini", 0.25, 2],
  ["gpt-5-nano", 0.05, 0.4],
  ["gpt-5", 1.25, 10],
  ["gpt-4.1-mini", 0.4, 1.6],
  ["gpt-4.1-nano", 0.1, 0.4],
  ["gpt-4.1", 2, 8],
  ["gpt-4o-mini", 0.15, 0.6],
  ["gpt-4o", 2.5, 10],
];

/** Dollars for these tokens of `model`, or undefined when its price is not known. */
export function priceOf(model: string, tokensIn: number, tokensOut: number): number | undefined {
  // The longest matching prefix: "gpt-4o-mini" before "gpt-4o".
  const match = PRICES.filter(([prefix]) => model.startsWith(prefix)).sort((a, b) => b[0].length - a[0].length)[0];
  if (!match) return undefined;
  return (tokensIn * match[1] + tokensOut * match[2]) / 1_000_000;
}
