package runner

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"

	"github.com/chatlint/chatlint/engine/document"
	"github.com/chatlint/chatlint/engine/finding"
	"github.com/chatlint/chatlint/engine/policy"
)

// engine compiles one YAML rule that reports every assistant message, so
// each finding shows where a document's messages were found.
func engine(t *testing.T) *policy.Engine {
	t.Helper()
	fsys := fstest.MapFS{"r.yaml": {Data: []byte(`rules:
  - id: assistant
    severity: info
    description: Every assistant message.
    given: messages[*]
    where: {role: assistant}
    assert: {role: {not_equals: assistant}}
    message: '{{$document.format}} {{$document.id}}'
`)}}
	p, err := policy.LoadFS(fsys, ".", "t")
	if err != nil {
		t.Fatal(err)
	}
	e, err := policy.Compile(context.Background(), []*policy.Pack{p}, policy.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func TestRun(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) Input {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return Input{Name: name, Path: p}
	}
	chat := `{"id":"c%d","messages":[{"role":"user","content":"q"},{"role":"assistant","content":"a"}]}`
	inputs := []Input{
		write("a.jsonl", fmt.Sprintf(chat, 1)+"\n\n"+"[1]\n"+fmt.Sprintf(chat, 2)+"\n"),
		write("b.json", "[\n"+fmt.Sprintf(chat, 3)+",\n"+fmt.Sprintf(chat, 4)+"\n]\n"),
		write("c.jsonl", `{"type":"session","id":"s1"}`+"\n"+
			`{"type":"message","message":{"role":"user","content":[{"type":"text","text":"q"}]}}`+"\n"+
			"{oops\n"+
			`{"type":"message","message":{"role":"assistant","content":[{"type":"text","text":"a"}]}}`+"\n"),
		write("d.jsonl", "not json\n"+`{"dialogue":[]}`+"\n"+`{"dialogue":[]}`+"\n"),
		{Name: "missing.jsonl", Path: filepath.Join(dir, "missing.jsonl")},
		{Name: "<stdin>"},
	}
	for _, workers := range []int{1, 4} {
		t.Run(fmt.Sprint(workers, " workers"), func(t *testing.T) {
			inputs[len(inputs)-1].Reader = strings.NewReader(fmt.Sprintf(chat, 5) + "\n")
			r := &Runner{Engine: engine(t), Opts: Options{Workers: workers}}
			var got []string
			sum, errs := r.Run(context.Background(), inputs, func(f finding.Finding) {
				got = append(got, fmt.Sprintf("%s:%d %s %s", f.File, f.Line, f.Rule, f.Message))
			})
			want := []string{
				"a.jsonl:1 assistant chat c1",
				"a.jsonl:3 jsonl-syntax a record must be a JSON object, not an array",
				"a.jsonl:4 assistant chat c2",
				"b.json:2 assistant chat c3",
				"b.json:3 assistant chat c4",
				"c.jsonl:3 jsonl-syntax invalid JSON: invalid character 'o' looking for beginning of object key string (byte 2)",
				"c.jsonl:4 assistant pi-session s1",
				"d.jsonl:1 jsonl-syntax invalid JSON: invalid character 'o' in literal null (expecting 'u') (byte 2)",
				"d.jsonl:2 unrecognized-format unrecognized format: the first record has keys {dialogue}; expected " + document.FormatNames() + " (force one with --format)",
				"<stdin>:1 assistant chat c5",
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("findings (-want +got):\n%s", diff)
			}
			if len(errs) != 1 || !os.IsNotExist(errs[0]) {
				t.Errorf("errors = %v, want the missing file", errs)
			}
			wantSum := finding.Summary{Files: 5, Records: 13, Errors: 4, Infos: 6, Inputs: []finding.Input{
				{File: "a.jsonl", Format: "chat", Records: 3},
				{File: "b.json", Format: "chat", Records: 2},
				{File: "c.jsonl", Format: "pi-session", Records: 4},
				{File: "d.jsonl", Records: 3},
				{File: "missing.jsonl", Error: "open " + filepath.Join(dir, "missing.jsonl") + ": no such file or directory"},
				{File: "<stdin>", Format: "chat", Records: 1},
			}}
			if diff := cmp.Diff(wantSum, sum); diff != "" {
				t.Errorf("summary (-want +got):\n%s", diff)
			}
			if n, b := r.Progress(); n != 13 || b == 0 {
				t.Errorf("progress = %d records, %d bytes", n, b)
			}
		})
	}
}

// TestForcedFormat reads a file as the format given, not the one detected.
func TestForcedFormat(t *testing.T) {
	r := &Runner{Engine: engine(t), Opts: Options{Format: document.Contract}}
	var got []string
	_, errs := r.Run(context.Background(), []Input{{Name: "x", Reader: strings.NewReader(`{"conversation_id":"c1","messages":[{"role":"assistant","content":"a"}]}` + "\n" + `{"id":"c2","messages":[]}` + "\n")}},
		func(f finding.Finding) { got = append(got, f.Message) })
	if len(errs) > 0 {
		t.Fatalf("Run: %v", errs)
	}
	want := []string{"contract c1", "--format contract: the record does not fit: it lacks a conversation_id or user_id member (its keys: {id, messages})"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// A line over the bound is a line-too-long finding and reading goes on; a
// .json document over it is not read; an empty input is a warning of the
// summary.
func TestBoundsAndEmpty(t *testing.T) {
	r := &Runner{Engine: engine(t), Opts: Options{MaxLineSize: 64}}
	long := `{"messages":[{"role":"user","content":"` + strings.Repeat("x", 100) + `"}]}`
	short := `{"id":"c1","messages":[{"role":"assistant","content":"a"}]}`
	var got []string
	sum, errs := r.Run(context.Background(), []Input{
		{Name: "a.jsonl", Reader: strings.NewReader(long + "\n" + short + "\n")},
		{Name: "b.json", Reader: strings.NewReader("[" + long + "]")},
		{Name: "c.jsonl", Reader: strings.NewReader("\n \n")},
	}, func(f finding.Finding) {
		got = append(got, fmt.Sprintf("%s:%d %s %s", f.File, f.Line, f.Rule, f.Message))
	})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	want := []string{
		"a.jsonl:1 line-too-long the line is 143 bytes long, over the limit of 64 bytes (--max-line-size); it was skipped",
		"a.jsonl:2 assistant chat c1",
		"b.json:1 line-too-long a .json document is read whole, and this one is over the limit of 64 bytes (--max-line-size); it was not checked",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("findings (-want +got):\n%s", diff)
	}
	wantIn := []finding.Input{
		{File: "a.jsonl", Format: "chat", Records: 2},
		{File: "b.json"},
		{File: "c.jsonl", Warning: finding.EmptyWarning},
	}
	if diff := cmp.Diff(wantIn, sum.Inputs); diff != "" || sum.Warnings != 1 {
		t.Errorf("inputs (-want +got):\n%s\nwarnings %d", diff, sum.Warnings)
	}
}

// Detection looks past records no format claims, up to lint.DetectWindow
// of them from the first object; what it held back is read in order.
func TestDetectLooksAhead(t *testing.T) {
	chat := `{"id":"c1","messages":[{"role":"assistant","content":"a"}]}`
	ccUser := `{"parentUuid":null,"isSidechain":false,"sessionId":"s-1","type":"user","message":{"role":"user","content":"hi"},"uuid":"u1"}`
	ccAsst := `{"parentUuid":"u1","isSidechain":false,"sessionId":"s-1","type":"assistant","message":{"id":"m","role":"assistant","content":[{"type":"text","text":"a"}]},"uuid":"a1"}`
	r := &Runner{Engine: engine(t), Opts: Options{Workers: 2}}
	var got []string
	sum, errs := r.Run(context.Background(), []Input{
		{Name: "a.jsonl", Reader: strings.NewReader(`{"note":1}` + "\n[2]\n" + chat + "\n")},
		{Name: "b.jsonl", Reader: strings.NewReader(strings.Repeat(`{"note":1}`+"\n", 16) + chat + "\n")},
		{Name: "c.jsonl", Reader: strings.NewReader(`{"type":"custom-title","title":"t"}` + "\n" + ccUser + "\n" + ccAsst + "\n")},
		{Name: "d.jsonl", Reader: strings.NewReader(`{"note":1}` + "\n")},
	}, func(f finding.Finding) {
		got = append(got, fmt.Sprintf("%s:%d %s", f.File, f.Line, f.Rule))
	})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	want := []string{
		"a.jsonl:2 jsonl-syntax",
		"a.jsonl:3 assistant",
		"b.jsonl:1 unrecognized-format",
		"c.jsonl:3 assistant",
		"d.jsonl:1 unrecognized-format",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("findings (-want +got):\n%s", diff)
	}
	wantIn := []finding.Input{
		{File: "a.jsonl", Format: "chat", Records: 3},
		{File: "b.jsonl", Records: 17},
		{File: "c.jsonl", Format: "claude-code", Records: 3},
		{File: "d.jsonl", Records: 1},
	}
	if diff := cmp.Diff(wantIn, sum.Inputs); diff != "" {
		t.Errorf("inputs (-want +got):\n%s", diff)
	}
}
