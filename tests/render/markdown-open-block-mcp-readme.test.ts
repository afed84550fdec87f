import { describe } from "vitest";
import { MCP_SDK_README, READMES, STREAMED_README, testStreamedReadme } from "./streamed-readmes.js";
import { useMarkdownStreaming } from "./stream-frames.js";

// The MCP SDK's README streamed in open blocks, once finished, equals the text rendered at once:
// the slowest of the installed packages' READMEs, apart from the others in
// markdown-open-block-readmes.test.ts so that neither file runs long.
useMarkdownStreaming();

describe(STREAMED_README, () => {
  testStreamedReadme(READMES.indexOf(MCP_SDK_README));
});
