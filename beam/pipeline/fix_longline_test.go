package pipeline

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"
	"github.com/google/go-cmp/cmp"
)

// TestFixLongLineWritesNothingOfItsFile: a line over --max-line-size was
// left out of the fixed records with a note ("not written") while the
// file's other lines were written, fixed: the output silently lacked a
// line. The reader does not hold such a line, so, as `chatlint fix` does,
// the job writes nothing of that file (no records, no rejects), notes an
// error naming the line and goes on with the other files.
func TestFixLongLineWritesNothingOfItsFile(t *testing.T) {
	const maxLine = 300
	// Each record names its file, so that the output tells which file a
	// line came from. A stray tool result makes a record the default packs
	// fix, with a reject.
	stray := func(tag string) string {
		return `{"id":"` + tag + `","messages":[{"role":"user","content":"q"},{"role":"tool","tool_call_id":"c9","content":"stray"},{"role":"assistant","content":"a"}]}`
	}
	clean := func(tag string) string {
		return `{"id":"` + tag + `","messages":[{"role":"user","content":"hi"},{"role":"assistant","content":"hello"}]}`
	}
	long := func(tag string) string {
		return `{"id":"` + tag + `","messages":[{"role":"user","content":"` + strings.Repeat("x", 2*maxLine) + `"},{"role":"assistant","content":"a"}]}`
	}
	session := func(tag, text string) string {
		return `{"type":"message","message":{"role":"user","content":[{"type":"text","text":"` + tag + " " + text + `"}]}}`
	}
	dir := t.TempDir()
	files := map[string]string{
		// The over-long line between lines a rule fixes and one it leaves.
		"long-chat.jsonl": stray("long-chat-1") + "\n" + long("long-chat-2") + "\n" + clean("long-chat-3") + "\n",
		// A session is one document: its over-long line would be missing
		// from the middle of it.
		"long-session.jsonl": `{"type":"session","id":"long-session"}` + "\n" +
			session("long-session", "first") + "\n" +
			`{"type":"message","message":{"role":"toolResult","toolCallId":"x","toolName":"read","content":[{"type":"text","text":"long-session orphan"}],"isError":false}}` + "\n" +
			session("long-session", strings.Repeat("y", 2*maxLine)) + "\n" +
			`{"type":"message","message":{"role":"assistant","content":[{"type":"text","text":"long-session done"}],"stopReason":"stop"}}` + "\n",
		"good.jsonl": stray("good-1") + "\n" + clean("good-2") + "\n",
	}
	for name, data := range files {
		for i, l := range strings.Split(strings.TrimSuffix(data, "\n"), "\n") {
			if over := len(l) > maxLine; over != (strings.Contains(l, strings.Repeat("x", maxLine)) || strings.Contains(l, strings.Repeat("y", maxLine))) {
				t.Fatalf("%s:%d is %d bytes: only the long lines may be over %d", name, i+1, len(l), maxLine)
			}
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}

	ctx := context.Background()
	fx, err := LoadFix(nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "fixed")
	o := Options{Inputs: []string{filepath.Join(dir, "*.jsonl")}, Output: out, Summary: out + ".summary.json",
		Config: Config{MaxLineSize: maxLine}, Fix: fx, Rejects: out + ".rejects.jsonl", Notes: out + ".notes.jsonl"}
	p, s := beam.NewPipelineWithRoot()
	if err := Build(s, o); err != nil {
		t.Fatal(err)
	}
	if err := ptest.Run(p); err != nil {
		t.Fatalf("pipeline: %v", err)
	}

	// Nothing of a file with an over-long line is written; the good file
	// is fixed as ever, its untouched line byte for byte.
	recs := fileLines(t, out)
	for _, l := range recs {
		if strings.Contains(l, "long-") {
			t.Errorf("a line of a file with an over-long line was written without it: %s", l)
		}
	}
	if len(recs) != 2 || !slices.Contains(recs, clean("good-2")) {
		t.Errorf("records = %q, want good.jsonl's two, its clean one as it was", recs)
	}
	rejects := fileLines(t, o.Rejects)
	if len(rejects) != 1 || !strings.Contains(rejects[0], `"file":"`+filepath.Join(dir, "good.jsonl")+`"`) {
		t.Errorf("rejects = %q, want good.jsonl's one only", rejects)
	}

	// The notes name each over-long line as an error, and say that its
	// file is not written.
	type note struct {
		Rule, Severity, Message, File string
		Line                          int
	}
	var notes []note
	for _, l := range fileLines(t, o.Notes) {
		var n note
		if err := json.Unmarshal([]byte(l), &n); err != nil {
			t.Fatalf("note %s: %v", l, err)
		}
		notes = append(notes, n)
	}
	slices.SortFunc(notes, func(a, b note) int { return strings.Compare(a.File, b.File) })
	const msg = " bytes long, over the limit of 300 bytes (--max-line-size); it was skipped (nothing is written for this file)"
	want := []note{
		{Rule: "line-too-long", Severity: "error", Message: "the line is 697" + msg, File: filepath.Join(dir, "long-chat.jsonl"), Line: 2},
		{Rule: "line-too-long", Severity: "error", Message: "the line is 695" + msg, File: filepath.Join(dir, "long-session.jsonl"), Line: 4},
	}
	if diff := cmp.Diff(want, notes); diff != "" {
		t.Errorf("notes (-want +got):\n%s", diff)
	}

	// The summary counts every file and line read, the documents of the
	// good file only, and the errors that make the exit status 2.
	sum, err := ReadSummary(ctx, o.Summary)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Files != 3 || sum.Records != 10 || sum.Fix.Documents != 2 || sum.Fix.Changed != 1 || sum.Fix.Dropped != 1 {
		t.Errorf("summary: %d files, %d lines, fix %+v; want 3 files, 10 lines, 2 documents, 1 changed, 1 dropped", sum.Files, sum.Records, sum.Fix)
	}
	if diff := cmp.Diff([]RuleCount{{Rule: "line-too-long", Severity: "error", Findings: 2}}, sum.Rules); diff != "" {
		t.Errorf("summary rules (-want +got):\n%s", diff)
	}
}
