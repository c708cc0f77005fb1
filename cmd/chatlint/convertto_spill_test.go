package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/chatlint/chatlint/engine/spill"
)

// A unit's examples held in a temporary file until they are written (a
// session split into turns makes the conversation again for each
// assistant message) are written as those held in memory: in input order,
// each once, with the same notes.
func TestConvertExamplesSpilled(t *testing.T) {
	inputs := []string{filepath.Join(repo, "fixtures/formats"), filepath.Join(repo, "fixtures/fix/claude-code-repairs/input.jsonl"),
		filepath.Join(repo, "fixtures/fix/claude-code-out-of-order/input.jsonl")}
	convert := func(t *testing.T, memory int) (string, string) {
		t.Helper()
		defer func(m int) { spill.Memory = m }(spill.Memory)
		spill.Memory = memory
		out := filepath.Join(t.TempDir(), "train.jsonl")
		_, stderr, code := chatlint(t, "", append([]string{"convert", "--to", "openai", "--split", "turns", "--workers", "2", "-o", out}, inputs...)...)
		if code != 1 { // the fixtures hold records that give no example
			t.Fatalf("exit %d, want 1: %s", code, stderr)
		}
		b, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		return string(b), strings.ReplaceAll(stderr, out, "OUT")
	}
	wantOut, wantErr := convert(t, spill.Memory)
	gotOut, gotErr := convert(t, 64)
	if len(wantOut) < 10*64 {
		t.Fatalf("the examples make %d bytes: too few to spill", len(wantOut))
	}
	if diff := cmp.Diff(wantOut, gotOut); diff != "" {
		t.Errorf("examples (-in memory +spilled):\n%s", diff)
	}
	if diff := cmp.Diff(wantErr, gotErr); diff != "" {
		t.Errorf("notes (-in memory +spilled):\n%s", diff)
	}
}
