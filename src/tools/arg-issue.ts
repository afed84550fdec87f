// How a tool's arguments fail their schema, in the words the model is told: the runner's refusal
// of a call and the text-call reader's reason for not taking one say it the same way.
import type * as z from "zod";

/** One zod issue as `field: what is wrong`; a field left out reads "missing". */
export function describeIssue(issue: z.core.$ZodIssue): string {
  const field = issue.path.length > 0 ? issue.path.join(".") : "arguments";
  if (issue.code === "invalid_type" && /received undefined$/.test(issue.message)) {
    return `${field}: missing (expected ${issue.expected})`;
  }
  return `${field}: ${issue.message.replace(/^Invalid input: /, "")}`;
}
