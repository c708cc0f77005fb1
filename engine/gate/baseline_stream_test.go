package gate

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/chatlint/chatlint/engine/finding"
)

func baselineFinding(i, size int) finding.Finding {
	return finding.Finding{Rule: "r", Severity: finding.Error, File: "f.jsonl", Line: i + 1, Record: fmt.Sprint("rec", i),
		Path: "/messages/0", Message: fmt.Sprintf("%d <&> %s", i, strings.Repeat("x", size))}
}

// TestBaselineWriterUnchanged: the streamed baseline is the bytes the whole
// file marshalled at once gave.
func TestBaselineWriterUnchanged(t *testing.T) {
	for _, n := range []int{0, 1, 3} {
		path := filepath.Join(t.TempDir(), "base.json")
		w, err := newBaselineWriter(path)
		if err != nil {
			t.Fatal(err)
		}
		want := baselineFile{Version: baselineVersion, Findings: []baselineEntry{}}
		for i := range n {
			f := baselineFinding(i, 3)
			w.add(f, fmt.Sprint("key", i))
			want.Findings = append(want.Findings, baselineEntry{Key: fmt.Sprint("key", i), Rule: f.Rule, File: f.File, Line: f.Line, Record: f.Record, Path: f.Path, Message: f.Message})
		}
		if err := w.write(); err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		data, _ := json.MarshalIndent(want, "", "  ")
		if d := cmp.Diff(string(data)+"\n", string(got)); d != "" {
			t.Errorf("%d entries (-old +new):\n%s", n, d)
		}
	}
}

// TestBaselineWriterBoundedMemory: the writer keeps no entry in memory.
func TestBaselineWriterBoundedMemory(t *testing.T) {
	w, err := newBaselineWriter(filepath.Join(t.TempDir(), "base.json"))
	if err != nil {
		t.Fatal(err)
	}
	defer w.abort()
	before := heapAlloc()
	for i := range 20000 { // 20 MB of messages
		w.add(baselineFinding(i, 1000), fmt.Sprint("key", i))
	}
	if grown := int64(heapAlloc()) - int64(before); grown > 4<<20 {
		t.Errorf("heap grew %d MB over 20000 entries, want at most 4 MB", grown>>20)
	}
}

func heapAlloc() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}
