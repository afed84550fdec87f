export { readFileTool } from "./read.js";
export { listFilesTool } from "./list.js";
export { createFileTool } from "./create.js";
export { editFileTool } from "./edit.js";
