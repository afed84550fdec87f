// Part of protocol/: what a `statusLine` command reads on stdin, in Claude Code's shape
// (code.claude.com/docs/en/statusline, "Available data"): the fields agent0 knows. The UI builds it
// (ui/update/status-line.ts, pure); the runtime adds the session file and the version.

export interface StatusLineInput {
  hook_event_name: "Status";
  session_id: string;
  transcript_path?: string;
  cwd: string;
  model: { id: string; display_name: string };
  workspace: { current_dir: string; project_dir: string; added_dirs?: string[] };
  version?: string;
  output_style: { name: string };
  /** Dollars only where known: 0 for a local model, absent for an unknown price. */
  cost: { total_cost_usd?: number; total_api_duration_ms: number };
  context_window?: {
    context_window_size: number;
    total_input_tokens: number;
    total_output_tokens: number;
    used_percentage: number;
    remaining_percentage: number;
  };
}
