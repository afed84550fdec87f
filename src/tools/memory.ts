import { type ToolResult, defineTool, type ToolContext } from "./types.js";
import * as z from "zod";
import {
  confinedMemoryDir,
  deleteMemory,
  listMemories,
  memoryDirs,
  memoryTypes,
  saveMemory,
  searchMemory,
  type Memory,
  type MemoryDir,
  type MemoryScope,
} from "../context/memory.js";

/** A search hit shows at most this much of the memory's body. */
const HIT_BODY_CHARS = 2000;

function dirsOf(ctx: ToolContext): MemoryDir[] {
  return memoryDirs(ctx.cwd, ctx.config.configDir);
}

/** The scope's folder; throws (a tool error) when it leads out of where it belongs. */
function dirFor(ctx: ToolContext, scope: MemoryScope): string {
  return confinedMemoryDir(dirsOf(ctx).find((d) => d.scope === scope)!);
}

function failure(err: unknown): ToolResult {
  return { content: `Error: ${err instanceof Error ? err.message : String(err)}`, isError: true };
}

function where(m: Memory): string {
  return `${m.scope ?? "?"}: ${m.file}`;
}

const scopeSchema = z
  .enum(["user", "project"])
  .optional()
  .describe(
    '"user" (all projects) or "project" (this project only). Default: "project" for type project, else "user".',
  );

export const memorySaveTool = defineTool({
  name: "memory_save",
  description:
    "Save a note that should outlive this session: the user's preferences or role (type user), corrections " +
    "and guidance they gave (feedback), facts about this project not visible in the code (project), or pointers " +
    "to outside resources (reference). Saving under an existing name replaces that memory.",
  schema: () =>
    z.object({
      name: z.string().min(1).describe("Short title, also the memory's key."),
      description: z.string().min(1).describe("One line saying what it holds; shown in the memory index."),
      type: z.enum(memoryTypes),
      content: z.string().describe("The memory itself, in markdown."),
      scope: scopeSchema,
    }),
  // Not read-only, but needs no approval: it only writes agent0's own memory folders.
  readOnly: false,
  concurrentSafe: false,
  label: (args) => `remember ${args.name}`,
  async run(args, ctx): Promise<ToolResult> {
    const scope = args.scope ?? (args.type === "project" ? "project" : "user");
    try {
      const saved = await saveMemory(dirFor(ctx, scope), args);
      return { content: `Saved memory "${saved.name}" (${scope}: ${saved.file}).`, summary: `saved ${saved.file}` };
    } catch (err) {
      return failure(err);
    }
  },
});

export const memorySearchTool = defineTool({
  name: "memory_search",
  description: "Search saved memories by keywords (name and description count most) and read the best matches in full.",
  schema: () => z.object({ query: z.string().min(1).describe("Keywords.") }),
  readOnly: true,
  concurrentSafe: true,
  label: (args) => `recall ${args.query}`,
  async run(args, ctx): Promise<ToolResult> {
    try {
      const hits = await searchMemory(dirsOf(ctx), args.query, 5);
      if (hits.length === 0) return { content: `No memory matches "${args.query}".`, summary: "no match" };
      const blocks = hits.map(({ memory: m, score }) => {
        const body =
          m.content.length > HIT_BODY_CHARS ? `${m.content.slice(0, HIT_BODY_CHARS)}\n[truncated]` : m.content;
        return `## ${m.name} (${m.type}; ${where(m)}; score ${score})\n${m.description}\n\n${body}`;
      });
      return { content: blocks.join("\n\n"), summary: `${hits.length} found` };
    } catch (err) {
      return failure(err);
    }
  },
});

export const memoryListTool = defineTool({
  name: "memory_list",
  description: "List every saved memory: name, type, scope and description.",
  schema: () => z.object({}),
  readOnly: true,
  concurrentSafe: true,
  label: () => "list memories",
  async run(_args, ctx): Promise<ToolResult> {
    try {
      const memories = await listMemories(dirsOf(ctx));
      if (memories.length === 0) return { content: "No memories saved yet.", summary: "none" };
      const lines = memories.map((m) => `- ${m.name} (${m.type}; ${where(m)}) — ${m.description}`);
      return { content: lines.join("\n"), summary: `${memories.length} memories` };
    } catch (err) {
      return failure(err);
    }
  },
});

export const memoryDeleteTool = defineTool({
  name: "memory_delete",
  description: "Delete a saved memory that is wrong or no longer useful, by its name.",
  schema: () =>
    z.object({
      name: z.string().min(1),
      scope: z.enum(["user", "project"]).optional().describe("Where to look; default: project first, then user."),
    }),
  readOnly: false,
  concurrentSafe: false,
  label: (args) => `forget ${args.name}`,
  async run(args, ctx): Promise<ToolResult> {
    const scopes: MemoryScope[] = args.scope ? [args.scope] : ["project", "user"];
    try {
      for (const scope of scopes) {
        if (await deleteMemory(dirFor(ctx, scope), args.name)) {
          return { content: `Deleted memory "${args.name}" (${scope}).`, summary: "deleted" };
        }
      }
      return { content: `Error: no memory named "${args.name}"; memory_list shows the names.`, isError: true };
    } catch (err) {
      return failure(err);
    }
  },
});

export const memoryTools = [memorySaveTool, memorySearchTool, memoryListTool, memoryDeleteTool];
