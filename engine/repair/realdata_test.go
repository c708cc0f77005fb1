package repair

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chatlint/chatlint/engine/internal/benchdata"
)

// TestRealData repairs copies of the public files under ../shared/data: only
// the deliberately malformed Codex rollout has lines to drop; every other
// file, including the headerless Claude Code and Codex logs, the pi sessions
// and the Claude Code edge cases (lines holding a JSON string, a number and a
// list: JSON, kept for check to report), is clean.
func TestRealData(t *testing.T) {
	root := filepath.Join(benchdata.Root(), "../shared/data")
	if _, err := os.Stat(root); err != nil {
		t.Skip("../shared/data is absent")
	}
	files, failed := Expand([]string{root})
	if len(failed) > 0 || len(files) == 0 {
		t.Fatalf("expand: %d files, %+v", len(files), failed)
	}
	dir := t.TempDir()
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, filepath.Base(f))
		os.WriteFile(p, data, 0o644)
		got := File(p, Options{})
		want := Clean
		if strings.HasSuffix(f, "cclog-codex-rollout-malformed.jsonl") {
			want = Repaired
		}
		if got.Outcome != want {
			t.Errorf("%s: %+v, want outcome %d", f, got, want)
		}
		if again := File(p, Options{}); again.Outcome != Clean {
			t.Errorf("%s: second run %+v", f, again)
		}
	}
}
