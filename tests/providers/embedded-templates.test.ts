// Which protocol a GGUF's chat template gets in the engine: node-llama-cpp's function calling when the
// template renders tools, else agent0's JSON protocol under the grammar. Templates, in part, from:
// - Qwen2.5-Coder-*-Instruct, tokenizer_config.json "chat_template" (huggingface.co/Qwen/Qwen2.5-Coder-7B-Instruct)
// - Llama 3.1 Instruct, tokenizer_config.json (huggingface.co/meta-llama/Llama-3.1-8B-Instruct)
// - plain ChatML as the tests' tiny model carries it (tests/fakes/tiny-gguf.ts), and Gemma 2's
//   template (huggingface.co/google/gemma-2-2b-it), which has no tools.
import { describe, expect, test } from "vitest";
import { templateTakesTools } from "../../src/providers/embedded/provider.js";

describe("a chat template that renders tools", () => {
  test.each([
    ["Qwen2.5-Coder", "{%- if tools %}\n    {{- '<|im_start|>system\\n' }}\n    {%- for tool in tools %}", true],
    [
      "Llama 3.1",
      "{%- if custom_tools is defined %}\n    {%- set tools = custom_tools %}\n{%- endif %}\n{%- if not tools_in_user_message is defined %}",
      true,
    ],
    [
      "plain ChatML",
      "{% for message in messages %}{{'<|im_start|>' + message['role'] + '\\n' + message['content'] + '<|im_end|>' + '\\n'}}{% endfor %}",
      false,
    ],
    [
      "Gemma 2",
      "{{ bos_token }}{% if messages[0]['role'] == 'system' %}{{ raise_exception('System role not supported') }}{% endif %}",
      false,
    ],
    ["no template", undefined, false],
  ])("%s: %s", (_name, template, takes) => {
    expect(templateTakesTools(template)).toBe(takes);
  });
});
