// Local types for the parts of highlight.js 10 we use. Its own types reference the DOM library,
// which would leak DOM globals (a second, narrower `Headers`) into the whole program.
declare module "highlight.js/lib/index.js" {
  /** A token tree node (10.x's private emitter API). */
  export type TokenNode = string | { kind?: string; sublanguage?: boolean; children: TokenNode[] };
  interface HighlightResult {
    value: string;
    emitter: { rootNode?: TokenNode };
  }
  const hljs: {
    highlight(code: string, options: { language: string; ignoreIllegals?: boolean }): HighlightResult;
    getLanguage(name: string): object | undefined;
  };
  export default hljs;
}
