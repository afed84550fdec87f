/** The path of file number `i` (0-based) in a generated repository. */
export function scalePath(i: number): string;
/** The repository of `files` files under the temp folder, made on first use and reused. */
export function scaleRepo(files: number, log?: (line: string) => void): Promise<string>;
