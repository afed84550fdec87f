/**
 * The colour themes. The styles of theme.ts are written for a dark background; "light" and
 * "ansi16" are that palette mapped where the frame meets the terminal (themeSgr), so no rendered
 * line has to be made again. Its own module: the config's schema reads it without chalk.
 */
export const COLOUR_THEMES = ["dark", "light", "ansi16"] as const;
export type ColourTheme = (typeof COLOUR_THEMES)[number];
