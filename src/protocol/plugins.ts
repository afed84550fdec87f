// Part of protocol/: plain data. What the UI knows of the Agent Plugins found (for /plugins), and
// the SKILL.md files of those that count, which both threads read skills from.

/** A SKILL.md of an enabled plugin the user trusts (the user's own, or a project's once trusted). */
export interface PluginSkillFile {
  /** Its real path, inside the plugin's folder. */
  file: string;
  plugin: string;
  scope: "user" | "project";
}

/** One plugin as /plugins lists it. */
export interface PluginView {
  name: string;
  scope: "user" | "project";
  /** The plugin's folder. */
  root: string;
  version?: string;
  description?: string;
  enabled: boolean;
  /** "user": the user's own; a project's is pending until the user answers, then trusted or denied. */
  trust: "user" | "pending" | "trusted" | "denied";
  /** Skill names (from each SKILL.md's folder). */
  skills: string[];
  /** MCP server names as agent0 runs them (`plugin:<plugin>:<server>`). */
  servers: string[];
  /** Other clients' extension namespaces in its manifest, which agent0 does not read. */
  extensions: string[];
  warnings: string[];
}
