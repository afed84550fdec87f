// /init: the model surveys the repository with read-only tools and drafts AGENTS.md; writing it
// goes through the normal approval (create_file / edit_file).

export const INIT_PROMPT = `Write an AGENTS.md for this repository: the instructions a coding agent (or a new developer) needs to work here.

First survey the project with read-only tools: list the top-level folders, read the README, the package or build manifest (package.json, pyproject.toml, Cargo.toml, go.mod, Makefile…), CI configuration and a few central source files. Do not guess what you have not read.

Then write AGENTS.md at the project root, short and specific (about 20–60 lines):
- what the project is, in one or two sentences;
- how to install, build, run, lint and test it (the exact commands), and how to run one test;
- the layout: the main folders and what lives in each;
- code style and conventions that the code or config files show;
- anything surprising: generated files, required services, environment variables.

If AGENTS.md already exists, read it first and update it with edit_file instead of replacing what is still right. Use create_file for a new file. Finish with a one-paragraph summary of what you wrote.`;
