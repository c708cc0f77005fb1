// Package codexgen writes long Codex CLI rollouts for tests and benchmarks.
package codexgen

import (
	"encoding/json"
	"fmt"
)

// Rollout returns a deterministic Codex CLI rollout of about lines lines, in
// the shape the Codex CLI writes (session_meta, turn_context, event_msg and
// response_item lines; SOURCES.md beside this file cites the real ones): each turn is a
// user message, a reasoning item, one to three exec_command calls with their
// exec_command_end events and outputs, and the assistant's answer. Every
// fifth output reports a failure (a non-zero exit code, in the text and in
// the event); every ninth turn has a developer message between a call and
// its output, as a compacted rollout has; the outputs alternate between the
// "Exit code: N" layout and unified exec's "Process exited with code N".
func Rollout(lines int) [][]byte {
	var out [][]byte
	sec := 0
	add := func(typ string, payload map[string]any) {
		sec++
		ts := fmt.Sprintf("2026-01-02T%02d:%02d:%02d.000Z", sec/3600%24, sec/60%60, sec%60)
		b, _ := json.Marshal(map[string]any{"timestamp": ts, "type": typ, "payload": payload})
		out = append(out, b)
	}
	add("session_meta", map[string]any{"id": "0199a0b0-0000-7000-8000-000000000001", "cwd": "/workspace/bench",
		"originator": "codex_cli_rs", "cli_version": "0.0.0-bench", "source": "cli", "model_provider": "openai"})
	calls := 0
	for turn := 0; len(out) < lines; turn++ {
		add("turn_context", map[string]any{"cwd": "/workspace/bench", "model": "gpt-5-codex", "approval_policy": "on-request",
			"sandbox_policy": map[string]any{"type": "workspace-write"}})
		ask := fmt.Sprintf("Step %d: run the checks in package p%d and tell me what fails.", turn, turn%17)
		add("event_msg", map[string]any{"type": "user_message", "message": ask})
		add("response_item", map[string]any{"type": "message", "role": "user", "content": []any{map[string]any{"type": "input_text", "text": ask}}})
		add("response_item", map[string]any{"type": "reasoning", "summary": []any{map[string]any{"type": "summary_text", "text": "I will run the tests."}},
			"encrypted_content": "gAAAA-bench"})
		for k := 0; k < 1+turn%3; k++ {
			calls++
			id := fmt.Sprintf("call_%06d", calls)
			cmd := fmt.Sprintf("go test ./p%d/... -run Test%d", turn%17, k)
			add("response_item", map[string]any{"type": "function_call", "name": "exec_command",
				"arguments": fmt.Sprintf(`{"cmd":%q,"workdir":"/workspace/bench"}`, cmd), "call_id": id})
			code := 0
			if calls%5 == 0 {
				code = 1
			}
			text := fmt.Sprintf("ok  \tbench/p%d\t0.%03ds\n", turn%17, calls%1000)
			if code != 0 {
				text = fmt.Sprintf("--- FAIL: Test%d (0.00s)\nFAIL\tbench/p%d\n", k, turn%17)
			}
			add("event_msg", map[string]any{"type": "exec_command_end", "call_id": id, "exit_code": code,
				"aggregated_output": text, "status": map[bool]string{true: "completed", false: "failed"}[code == 0]})
			if turn%9 == 4 && k == 0 {
				add("response_item", map[string]any{"type": "message", "role": "developer",
					"content": []any{map[string]any{"type": "input_text", "text": "<permissions instructions>Approvals are on request.</permissions instructions>"}}})
			}
			var output string
			if calls%2 == 0 {
				output = fmt.Sprintf("Exit code: %d\nWall time: 0.4 seconds\nOutput:\n%s", code, text)
			} else {
				output = fmt.Sprintf("Chunk ID: %06x\nWall time: 0.4000 seconds\nProcess exited with code %d\nOutput:\n%s", calls, code, text)
			}
			add("response_item", map[string]any{"type": "function_call_output", "call_id": id, "output": output})
		}
		answer := fmt.Sprintf("The checks of p%d ran; see the output above.", turn%17)
		add("event_msg", map[string]any{"type": "agent_message", "message": answer})
		add("response_item", map[string]any{"type": "message", "role": "assistant", "content": []any{map[string]any{"type": "output_text", "text": answer}}})
		add("event_msg", map[string]any{"type": "token_count", "info": map[string]any{"total_token_usage": map[string]any{"input_tokens": 1000 * turn}}})
	}
	return out
}
