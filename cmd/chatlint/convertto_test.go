package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/chatlint/chatlint/cmd/chatlint/internal/cmdutil"
)

// TestConvertToOpenAIFixtures converts each file of fixtures/convert-openai/in
// (chat, Anthropic-block chat, pi-session, proxy-log) with --to openai,
// compares the examples and the notes with expected/ (rewrite with -update),
// and checks the examples: a clean source converts to a clean dataset.
func TestConvertToOpenAIFixtures(t *testing.T) {
	ins, _ := filepath.Glob(filepath.Join(repo, "fixtures/convert-openai/in/*.jsonl"))
	if len(ins) < 4 {
		t.Fatalf("fixtures missing: %v", ins)
	}
	for _, in := range ins {
		name := strings.TrimSuffix(filepath.Base(in), ".jsonl")
		t.Run(name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "train.jsonl")
			var stdout, stderr bytes.Buffer
			code := run(context.Background(), []string{"convert", "--to", "openai", "-o", out, rel(t, in)}, cmdutil.IOStreams{Out: &stdout, ErrOut: &stderr})
			if code != 0 || stdout.Len() > 0 {
				t.Fatalf("exit %d, stdout %q, stderr:\n%s", code, stdout.String(), stderr.String())
			}
			got, err := os.ReadFile(out)
			if err != nil {
				t.Fatal(err)
			}
			notes := strings.ReplaceAll(stderr.String(), out, "OUT")
			exp := filepath.Join(repo, "fixtures/convert-openai/expected", name)
			if *update {
				os.MkdirAll(filepath.Dir(exp), 0o755)
				os.WriteFile(exp+".jsonl", got, 0o644)
				os.WriteFile(exp+".notes.txt", []byte(notes), 0o644)
			}
			want, _ := os.ReadFile(exp + ".jsonl")
			wantNotes, _ := os.ReadFile(exp + ".notes.txt")
			if diff := cmp.Diff(string(want), string(got)); diff != "" {
				t.Errorf("examples (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(string(wantNotes), notes); diff != "" {
				t.Errorf("notes (-want +got):\n%s", diff)
			}
			stdout.Reset()
			if code := run(context.Background(), []string{"check", out}, cmdutil.IOStreams{Out: &stdout, ErrOut: &stderr}); code != 0 {
				t.Errorf("check on the converted file: exit %d\n%s", code, stdout.String())
			}
		})
	}
}

// TestConvertToOpenAIStreamsAndFails: without -o the examples go to standard
// output; a non-empty input that gives no example, or a file of no known
// format, exits 1 with a note naming the file and line.
func TestConvertToOpenAIStreamsAndFails(t *testing.T) {
	dir := t.TempDir()
	noAssistant := filepath.Join(dir, "no-assistant.jsonl")
	os.WriteFile(noAssistant, []byte(`{"messages":[{"role":"user","content":"Hi"}]}`+"\n"), 0o644)
	unknown := filepath.Join(dir, "unknown.jsonl")
	os.WriteFile(unknown, []byte(`{"foo":1}`+"\n"), 0o644)
	chat := filepath.Join(repo, "fixtures/convert-openai/in/chat.jsonl")
	tests := []struct {
		args      []string
		code      int
		stdout    int // example lines on standard output
		stderrHas string
	}{
		{[]string{chat}, 0, 2, "converted 2 document(s) of 1 file(s) into 2 openai example(s), written to standard output"},
		{[]string{"--split", "turns", chat}, 0, 3, "into 3 openai example(s)"},
		{[]string{noAssistant}, 1, 0, noAssistant + ":1: error convert-no-example: no assistant message to train on"},
		{[]string{unknown, chat}, 1, 2, unknown + ":1: error unrecognized-format"},
	}
	for _, tt := range tests {
		var stdout, stderr bytes.Buffer
		code := run(context.Background(), append([]string{"convert", "--to", "openai"}, tt.args...), cmdutil.IOStreams{Out: &stdout, ErrOut: &stderr})
		lines := strings.Count(stdout.String(), "\n")
		if code != tt.code || lines != tt.stdout || !strings.Contains(stderr.String(), tt.stderrHas) {
			t.Errorf("%v: exit %d, %d lines, stderr:\n%s\nwant exit %d, %d lines, %q", tt.args, code, lines, stderr.String(), tt.code, tt.stdout, tt.stderrHas)
		}
	}
}

func TestConvertToUsageErrors(t *testing.T) {
	chat := filepath.Join(repo, "fixtures/convert-openai/in/chat.jsonl")
	for _, tt := range []struct {
		args []string
		err  string
	}{
		{[]string{"--to", "xml", chat}, `--to: want openai, not "xml"`},
		{[]string{"--to", "openai"}, "convert --to needs at least one file"},
		{[]string{"--to", "openai", "--logs", "x", chat}, "--logs is a flag of the proxy-log drop-in"},
		{[]string{"--to", "openai", "--split", "words", chat}, "--split: want turns"},
		{[]string{"--to", "openai", "--format", "nope", chat}, "--format: unknown input format"},
		{[]string{chat}, "unknown command"},
	} {
		var stderr bytes.Buffer
		code := run(context.Background(), append([]string{"convert"}, tt.args...), cmdutil.IOStreams{Out: &bytes.Buffer{}, ErrOut: &stderr})
		if code != 2 || !strings.Contains(stderr.String(), tt.err) {
			t.Errorf("%v: exit %d, stderr %q; want 2 and %q", tt.args, code, stderr.String(), tt.err)
		}
	}
}

// TestConvertToNotesLoneSurrogates: a lone surrogate escape becomes U+FFFD
// in the example; convert says so instead of "0 note(s)".
func TestConvertToNotesLoneSurrogates(t *testing.T) {
	dir := t.TempDir()
	f := writeFile(t, dir, "s.jsonl", `{"messages":[{"role":"user","content":"a\ud83d b"},{"role":"assistant","content":"ok"}]}`+"\n"+cleanRecord+"\n")
	out := filepath.Join(dir, "out.jsonl")
	_, errOut, code := chatlint(t, "", "convert", "--to", "openai", "-o", out, f)
	if want := "s.jsonl:1: warning convert-lossy: 1 lone surrogate escape(s) (the first \\ud83d) replaced with U+FFFD"; code != 0 || !strings.Contains(errOut, want) || !strings.Contains(errOut, "; 1 note(s)") {
		t.Errorf("exit %d, stderr %q; want the note %q", code, errOut, want)
	}
	if b, _ := os.ReadFile(out); !strings.Contains(string(b), "a\uFFFD b") {
		t.Errorf("the example does not hold U+FFFD: %s", b)
	}
}

// TestConvertToBatchJoin: a Batch input and its output, given together,
// give one example per answered request, joined by custom_id whatever the
// order of the files and lines; an output alone is refused (exit 2), and
// an answer no request asked for is noted.
func TestConvertToBatchJoin(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "input.jsonl")
	os.WriteFile(in, []byte(`{"custom_id":"q1","method":"POST","url":"/v1/chat/completions","body":{"model":"m","messages":[{"role":"user","content":"Capital of Peru?"}]}}
{"custom_id":"q2","method":"POST","url":"/v1/chat/completions","body":{"model":"m","messages":[{"role":"user","content":"Capital of Chile?"}]}}
`), 0o644)
	out := filepath.Join(dir, "output.jsonl")
	os.WriteFile(out, []byte(`{"id":"b2","custom_id":"q2","response":{"status_code":200,"body":{"choices":[{"index":0,"message":{"role":"assistant","content":"Santiago."},"finish_reason":"stop"}]}},"error":null}
{"id":"b1","custom_id":"q1","response":{"status_code":200,"body":{"choices":[{"index":0,"message":{"role":"assistant","content":"Lima."},"finish_reason":"stop"}]}},"error":null}
{"id":"b9","custom_id":"q9","response":{"status_code":200,"body":{"choices":[{"index":0,"message":{"role":"assistant","content":"?"},"finish_reason":"stop"}]}},"error":null}
`), 0o644)
	want := `{"messages":[{"role":"user","content":"Capital of Peru?"},{"role":"assistant","content":"Lima."}]}
{"messages":[{"role":"user","content":"Capital of Chile?"},{"role":"assistant","content":"Santiago."}]}
`
	for _, args := range [][]string{{in, out}, {out, in}} {
		var stdout, stderr bytes.Buffer
		code := run(context.Background(), append([]string{"convert", "--to", "openai"}, args...), cmdutil.IOStreams{Out: &stdout, ErrOut: &stderr})
		if code != 0 {
			t.Errorf("%v: exit %d\n%s", args, code, stderr.String())
		}
		if diff := cmp.Diff(want, stdout.String()); diff != "" {
			t.Errorf("%v: examples (-want +got):\n%s", args, diff)
		}
		if note := out + `:3: warning convert-lossy: the answer to custom_id "q9" has no request in the Batch input files: left out`; !strings.Contains(stderr.String(), note) {
			t.Errorf("%v: stderr lacks %q:\n%s", args, note, stderr.String())
		}
	}
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), []string{"convert", "--to", "openai", out}, cmdutil.IOStreams{Out: &stdout, ErrOut: &stderr})
	if code != 2 || stdout.Len() > 0 || !strings.Contains(stderr.String(), "an OpenAI Batch output holds the answers without the requests they answer") {
		t.Errorf("output alone: exit %d, stdout %q, stderr:\n%s", code, stdout.String(), stderr.String())
	}
}

// TestConvertToKTONegatives: --kto-negatives error makes an undesirable
// KTO record an error (exit 1); a value it does not know is a usage error.
func TestConvertToKTONegatives(t *testing.T) {
	kto := filepath.Join(repo, "fixtures/convert-openai/in/kto.jsonl")
	for _, tt := range []struct {
		args []string
		code int
		has  string
	}{
		{[]string{"--kto-negatives", "error", kto}, 1, "kto.jsonl:2: error convert-no-example: a KTO record marked undesirable (label false)"},
		{[]string{"--kto-negatives", "keep", kto}, 2, `--kto-negatives: want skip or error, not "keep"`},
	} {
		var stdout, stderr bytes.Buffer
		code := run(context.Background(), append([]string{"convert", "--to", "openai"}, tt.args...), cmdutil.IOStreams{Out: &stdout, ErrOut: &stderr})
		if code != tt.code || !strings.Contains(stderr.String(), tt.has) {
			t.Errorf("%v: exit %d, stderr:\n%s\nwant exit %d and %q", tt.args, code, stderr.String(), tt.code, tt.has)
		}
	}
}
