// Package benchdata loads the benchmark inputs under fixtures/bench and
// derives inputs of the other formats from them, so every adapter is
// measured on the same conversations.
package benchdata

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
)

// Root is the repository root, found from this file's location.
func Root() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "../../..")
}

// Lines returns the non-empty lines of a file under fixtures/bench.
func Lines(name string) ([][]byte, error) {
	return FileLines(filepath.Join(Root(), "fixtures/bench", name))
}

// FileLines returns the non-empty lines of a file.
func FileLines(path string) ([][]byte, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var out [][]byte
	for _, l := range bytes.Split(data, []byte{'\n'}) {
		if len(bytes.TrimSpace(l)) > 0 {
			out = append(out, l)
		}
	}
	return out, nil
}

// Contract rewrites chat records as contract records.
func Contract(chat [][]byte) [][]byte {
	out := make([][]byte, len(chat))
	for i, l := range chat {
		var rec map[string]any
		_ = json.Unmarshal(l, &rec)
		rec["conversation_id"] = "conv-" + string(rune('a'+i%26))
		rec["user_id"] = "user-1"
		rec["timestamp"] = "2026-01-02T03:04:05Z"
		rec["metadata"] = map[string]any{"source": "bench"}
		out[i], _ = json.Marshal(rec)
	}
	return out
}

// PiSession rewrites one chat record as a pi-style session transcript:
// a header line, then one message entry per message with tool calls as
// toolCall content blocks and results as toolResult messages.
func PiSession(chat []byte) [][]byte {
	var rec struct {
		Messages []map[string]any `json:"messages"`
	}
	_ = json.Unmarshal(chat, &rec)
	out := [][]byte{[]byte(`{"type":"session","id":"bench-session","timestamp":"2026-01-02T03:04:05Z"}`)}
	for _, m := range rec.Messages {
		msg := map[string]any{"role": m["role"]}
		var content []any
		if s, ok := m["content"].(string); ok {
			content = append(content, map[string]any{"type": "text", "text": s})
		}
		if calls, ok := m["tool_calls"].([]any); ok {
			for _, c := range calls {
				cm, _ := c.(map[string]any)
				fn, _ := cm["function"].(map[string]any)
				var args any
				if s, ok := fn["arguments"].(string); ok {
					_ = json.Unmarshal([]byte(s), &args)
				}
				content = append(content, map[string]any{"type": "toolCall", "id": cm["id"], "name": fn["name"], "arguments": args})
			}
		}
		if m["role"] == "tool" {
			msg["role"] = "toolResult"
			msg["toolCallId"] = m["tool_call_id"]
		}
		msg["content"] = content
		line, _ := json.Marshal(map[string]any{"type": "message", "timestamp": "2026-01-02T03:04:06Z", "message": msg})
		out = append(out, line)
	}
	return out
}
