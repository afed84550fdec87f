import { describe } from "vitest";
import { MCP_SDK_README, READMES, STREAMED_README, testStreamedReadme } from "./streamed-readmes.js";
import { useMarkdownStreaming } from "./stream-frames.js";

// Streamed open blocks on markdown written by others (the READMEs of packages we install): once
// finished, the streamed frames equal the text rendered at once. The MCP SDK's README, the slowest,
// is in markdown-open-block-mcp-readme.test.ts; the cut's cost and what a later line changes above
// it are in markdown-open-block.test.ts.
useMarkdownStreaming();

describe(STREAMED_README, () => {
  for (const [i, file] of READMES.entries()) if (file !== MCP_SDK_README) testStreamedReadme(i);
});
