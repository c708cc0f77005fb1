package convert

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/chatlint/chatlint/engine/internal/benchdata"
)

// BenchmarkConvert converts a tree of sessions made from the proxy-log
// benchmark input (fixtures/bench): its lines split into one file per
// session_id, the set repeated to 200 files. The default flags are on:
// goose cleanup, integrity analysis, anonymisation, tool report. In "logs"
// no goose rule fires; in "goose" every entry's system prompt is goose's,
// so the cleanup changes every entry, as it does on goose's own logs.
func BenchmarkConvert(b *testing.B) {
	lines, err := benchdata.Lines("proxy-log.jsonl")
	if err != nil {
		b.Skip(err)
	}
	b.Run("logs", func(b *testing.B) { benchConvert(b, lines) })
	goose := make([][]byte, len(lines))
	for i, l := range lines {
		goose[i] = bytes.Replace(l, []byte(`{"role":"system","content":"`), []byte(`{"role":"system","content":"You are a general-purpose AI agent called goose. `), 1)
		if bytes.Equal(goose[i], l) {
			b.Fatalf("line %d has no system prompt to replace", i+1)
		}
	}
	b.Run("goose", func(b *testing.B) { benchConvert(b, goose) })
}

func benchConvert(b *testing.B, lines [][]byte) {
	bySession := map[string][][]byte{}
	var order []string
	for _, l := range lines {
		var e struct {
			SessionID string `json:"session_id"`
		}
		json.Unmarshal(l, &e)
		if _, ok := bySession[e.SessionID]; !ok {
			order = append(order, e.SessionID)
		}
		bySession[e.SessionID] = append(bySession[e.SessionID], l)
	}
	logs := b.TempDir()
	var size int64
	n := 0
	for n < 200 {
		for _, id := range order {
			data := append(bytes.Join(bySession[id], []byte("\n")), '\n')
			if err := os.WriteFile(filepath.Join(logs, fmt.Sprintf("s-%04d.jsonl", n)), data, 0o644); err != nil {
				b.Fatal(err)
			}
			size += int64(len(data))
			n++
		}
	}
	b.SetBytes(size)
	b.ResetTimer()
	for range b.N {
		c := &Converter{Opts: Options{Logs: logs, Output: b.TempDir(), GroupBy: GroupDate, ToolReport: true, Integrity: true,
			Anonymize: true, CleanupGoose: true, KeepGoing: true, Stdout: io.Discard}}
		if _, err := c.Run(context.Background()); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "sessions/s")
}
