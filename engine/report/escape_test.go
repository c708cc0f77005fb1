package report

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/chatlint/chatlint/engine/finding"
)

func TestClean(t *testing.T) {
	long := strings.Repeat("a", 300)
	tests := []struct{ name, in, want string }{
		{"plain", `tool "get_weather" has no result`, `tool "get_weather" has no result`},
		{"escape sequence", "function_call \"\x1b[2J\x07x\"", `function_call "\x1b[2J\x07x"`},
		{"forged line", "name \"x\"\nfile.jsonl:1: error fake: y", `name "x"\nfile.jsonl:1: error fake: y`},
		{"carriage return and tab", "a\rb\tc", `a\rb\tc`},
		{"C1 and bidi", "a\u009bb\u202ec", `a\x9bb\u202ec`},
		{"invalid UTF-8", "a\xffb", `a\xffb`},
		{"unicode kept", "température 18 °C", "température 18 °C"},
		{"long quoted value", `tool "` + long + `" x`, `tool "` + strings.Repeat("a", 99) + `…" x`},
		{"long pointer", "at /" + long, "at /" + strings.Repeat("a", 198) + "…"},
		{"escaped quote inside", `x "a\"b" y`, `x "a\"b" y`},
		{"workflow command", "::error file=a.jsonl,line=1::forged", `\x3a:error file=a.jsonl,line=1::forged`},
		{"workflow command after spaces", " \u00a0::warning::x", ` ` + "\u00a0" + `\x3a:warning::x`},
		{"colons inside kept", "a::b", "a::b"},
		{"old-style command", "x ##[error]forged", `x ##\x5berror]forged`},
	}
	for _, tc := range tests {
		if got := Clean(tc.in); got != tc.want {
			t.Errorf("%s: Clean(%q) =\n%q, want\n%q", tc.name, tc.in, got, tc.want)
		}
	}
	if got := Clean(strings.Repeat("word ", 1000)); len([]rune(got)) != maxMessage {
		t.Errorf("a long message is %d runes, want %d", len([]rune(got)), maxMessage)
	}
}

// Text and GitHub output escape what a dataset controls: messages and file
// names.
func TestOutputEscapes(t *testing.T) {
	f := finding.Finding{Rule: "legacy-function-call", Severity: finding.Error, File: "a\nb.jsonl", Line: 2,
		Message: "assistant message 1 uses legacy function_call \"\x1b[2J\"; use tool_calls"}
	sum := finding.Summary{Files: 1, Records: 1, Errors: 1}
	text := write(t, "text", []finding.Finding{f}, sum)
	if want := `a\nb.jsonl:2: error legacy-function-call: assistant message 1 uses legacy function_call "\x1b[2J"; use tool_calls` + "\n"; !strings.HasPrefix(text, want) {
		t.Errorf("text:\n%q\nwant prefix\n%q", text, want)
	}
	forged := finding.Finding{Rule: "r", Severity: finding.Error, File: "::error file=x.jsonl,line=1::forged", Line: 3, Message: "##[error]forged"}
	if got, want := write(t, "text", []finding.Finding{forged}, sum), `\x3a:error file=x.jsonl,line=1::forged:3: error r: ##\x5berror]forged`+"\n"; !strings.HasPrefix(got, want) {
		t.Errorf("text of a forged command:\n%q\nwant prefix\n%q", got, want)
	}
	if got, want := write(t, "github", []finding.Finding{forged}, sum), `::error file=\x3a%3Aerror file=x.jsonl%2Cline=1%3A%3Aforged,line=3,title=r::##\x5berror]forged`+"\n"; !strings.HasPrefix(got, want) {
		t.Errorf("github of a forged command:\n%q\nwant prefix\n%q", got, want)
	}
	gh := write(t, "github", []finding.Finding{f}, sum)
	if want := `::error file=a\nb.jsonl,line=2,title=legacy-function-call::assistant message 1 uses legacy function_call "\x1b[2J"; use tool_calls` + "\n"; !strings.HasPrefix(gh, want) {
		t.Errorf("github:\n%q\nwant prefix\n%q", gh, want)
	}
}

// The summary names each input's format and record count: per format on
// the last line, per file with Verbose; an empty file is a warning.
func TestSummaryInputs(t *testing.T) {
	sum := finding.Summary{Files: 3, Records: 8, Warnings: 1, Inputs: []finding.Input{
		{File: "a.jsonl", Format: "chat", Records: 5},
		{File: "b.jsonl", Format: "chat", Records: 2},
		{File: "c.jsonl", Warning: finding.EmptyWarning},
		{File: "d.jsonl", Records: 1},
		{File: "e.jsonl", Error: "open e.jsonl: permission denied"},
	}}
	var b strings.Builder
	w, _ := New("text", &b)
	_ = w.Close(sum)
	want := "c.jsonl: warning: empty: no record, nothing was checked\n" +
		"0 errors, 1 warning, 0 infos (3 files, 8 records; chat: 2 files, 7 records; empty: 1 file, 0 records; unrecognized: 1 file, 1 record)\n"
	if diff := cmp.Diff(want, b.String()); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	b.Reset()
	w, _ = NewWith("text", &b, Options{Verbose: true})
	_ = w.Close(sum)
	want = "a.jsonl: chat, 5 records\nb.jsonl: chat, 2 records\nc.jsonl: warning: empty: no record, nothing was checked\n" +
		"d.jsonl: unrecognized format, 1 record\ne.jsonl: not read: open e.jsonl: permission denied\n" +
		"0 errors, 1 warning, 0 infos (3 files, 8 records; chat: 2 files, 7 records; empty: 1 file, 0 records; unrecognized: 1 file, 1 record)\n"
	if diff := cmp.Diff(want, b.String()); diff != "" {
		t.Errorf("verbose (-want +got):\n%s", diff)
	}
}

// GitHub output turns an empty input into a warning annotation on the file.
func TestGitHubEmptyInput(t *testing.T) {
	sum := finding.Summary{Files: 1, Warnings: 1, Inputs: []finding.Input{{File: "e.jsonl", Warning: finding.EmptyWarning}}}
	got := write(t, "github", nil, sum)
	want := "::warning file=e.jsonl,title=empty input::empty: no record, nothing was checked\n" +
		"0 errors, 1 warning, 0 infos (1 file, 0 records; empty: 1 file, 0 records)\n"
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}
