package runner

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/chatlint/chatlint/internal/codexgen"
)

// TestSessionWaitsForRoom: before it gathers a session file, the reader
// waits for room in the budget for the whole file (its size and a job's
// overhead), so that a session is not read into memory while the sessions
// in flight fill the budget; a per-record file asks for none.
func TestSessionWaitsForRoom(t *testing.T) {
	dir := t.TempDir()
	rollout := filepath.Join(dir, "rollout.jsonl")
	data := append(bytes.Join(codexgen.Rollout(200), []byte("\n")), '\n')
	if err := os.WriteFile(rollout, data, 0o644); err != nil {
		t.Fatal(err)
	}
	chat := filepath.Join(dir, "chat.jsonl")
	if err := os.WriteFile(chat, []byte(`{"messages":[{"role":"user","content":"hi"},{"role":"assistant","content":"hello"}]}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	type ask struct {
		weight int64
		sent   int // jobs sent before room was asked
	}
	for _, c := range []struct {
		path string
		want []ask
	}{
		{rollout, []ask{{int64(len(data)) + jobOverhead, 0}}},
		{chat, nil},
	} {
		var asked []ask
		sent := 0
		p := producer{counts: &progress{}, sink: func(job) { sent++ },
			room: func(n int64) bool { asked = append(asked, ask{n, sent}); return true }}
		if _, err := p.read(context.Background(), Input{Name: filepath.Base(c.path), Path: c.path}); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(c.want, asked, cmp.AllowUnexported(ask{})); diff != "" {
			t.Errorf("%s: room asked (-want +got):\n%s", filepath.Base(c.path), diff)
		}
	}
}
