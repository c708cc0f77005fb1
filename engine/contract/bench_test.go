package contract

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"testing"

	"github.com/chatlint/chatlint/engine/internal/benchdata"
)

// contractLines turns the benchmark's chat records into contract records
// that meet the contract: unique ids, messages reduced to role and content.
func contractLines(b *testing.B) []byte {
	lines, err := benchdata.Lines("chat.jsonl")
	if err != nil {
		b.Fatal(err)
	}
	var out bytes.Buffer
	for i, l := range lines {
		var rec struct {
			Messages []map[string]any `json:"messages"`
		}
		if err := json.Unmarshal(l, &rec); err != nil {
			b.Fatal(err)
		}
		msgs := make([]map[string]string, len(rec.Messages))
		for k, m := range rec.Messages {
			role, _ := m["role"].(string)
			content, _ := m["content"].(string)
			msgs[k] = map[string]string{"role": role, "content": content}
		}
		line, _ := json.Marshal(map[string]any{
			"conversation_id": fmt.Sprintf("conv_%06d", i), "user_id": fmt.Sprintf("user_%d", i%50),
			"timestamp": "2026-02-10T12:34:56Z", "messages": msgs, "metadata": map[string]any{"source": "bench"},
		})
		out.Write(line)
		out.WriteByte('\n')
	}
	return out.Bytes()
}

// BenchmarkValidate measures validate-input's whole path (split lines,
// decode, evaluate the contract pack, account in order) on all cores, with
// and without the messages-only snapshot.
func BenchmarkValidate(b *testing.B) {
	data := contractLines(b)
	eng, err := NewEngine(context.Background())
	if err != nil {
		b.Fatal(err)
	}
	for _, snapshot := range []bool{false, true} {
		b.Run(fmt.Sprintf("snapshot=%t", snapshot), func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				opts := Options{InputPath: "bench.jsonl", MaxErrors: 100}
				if snapshot {
					opts.Snapshot = io.Discard
				}
				rep, err := eng.Validate(context.Background(), bytes.NewReader(data), opts)
				if err != nil {
					b.Fatal(err)
				}
				if !rep.IsValid {
					b.Fatalf("bench data is not valid: %+v", rep.Errors)
				}
			}
		})
	}
}
