package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// gateCase runs check and asserts the exit status and substrings of
// stdout and stderr.
type gateCase struct {
	name       string
	args       []string
	stdin      string
	want       int
	wantOut    []string
	wantStderr []string
	notOut     []string
}

func runGate(t *testing.T, tests []gateCase) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, errOut, code := chatlint(t, tt.stdin, tt.args...)
			if code != tt.want {
				t.Errorf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, tt.want, out, errOut)
			}
			for _, w := range tt.wantOut {
				if !strings.Contains(out, w) {
					t.Errorf("stdout lacks %q:\n%s", w, out)
				}
			}
			for _, w := range tt.notOut {
				if strings.Contains(out, w) {
					t.Errorf("stdout has %q:\n%s", w, out)
				}
			}
			for _, w := range tt.wantStderr {
				if !strings.Contains(errOut, w) {
					t.Errorf("stderr lacks %q:\n%s", w, errOut)
				}
			}
		})
	}
}

const (
	piHeader     = `{"type":"session","id":"s1"}`
	piUnanswered = `{"type":"message","message":{"role":"assistant","content":[{"type":"toolCall","id":"t1","name":"bash","arguments":{"command":"ls"}}],"stopReason":"toolUse"}}`
	piFinal      = `{"type":"message","message":{"role":"assistant","content":[{"type":"text","text":"done"}],"stopReason":"stop"}}`
	contractRec  = `{"conversation_id":"c1","user_id":"u1","messages":[{"role":"user","content":"x"},{"role":"tool","tool_call_id":"call_9","content":"ok"},{"role":"assistant","content":"y"}]}`
)

// Every recognized format is checked (item: no silent green).
func TestEveryFormatIsChecked(t *testing.T) {
	dir := t.TempDir()
	session := writeFile(t, dir, "s.jsonl", piHeader+"\n"+piUnanswered+"\n"+piFinal+"\n")
	contract := writeFile(t, dir, "c.jsonl", contractRec+"\n")
	runGate(t, []gateCase{
		{name: "agent session with an unanswered call", args: []string{"check", session}, want: 1,
			wantOut: []string{"s.jsonl:2: error tool-result-missing:", "pi-session: 1 file, 3 records"}},
		{name: "contract record with an orphan result", args: []string{"check", contract}, want: 1,
			wantOut: []string{"c.jsonl:1: error tool-result-orphan:", "contract: 1 file, 1 record"}},
	})
}

// A forced format checks that the records fit it.
func TestForcedFormatMustFit(t *testing.T) {
	cc := writeFile(t, t.TempDir(), "cc.jsonl", `{"type":"user","message":{"role":"user","content":"hi"},"uuid":"u"}`+"\n")
	runGate(t, []gateCase{
		{name: "contract", args: []string{"check", "--format", "contract", "-"}, stdin: `{"foo":1}` + "\n", want: 1,
			wantOut: []string{"<stdin>:1: error format-mismatch: --format contract: the record does not fit: it lacks a conversation_id or user_id member (its keys: {foo})"}},
		{name: "pi-session on a Claude Code file", args: []string{"check", "--format", "pi-session", cc}, want: 1,
			wantOut: []string{`cc.jsonl:1: error format-mismatch: --format pi-session: the file does not fit: it lacks a session header {"type": "session", "id": …} as its first line`}},
		{name: "a record that fits", args: []string{"check", "--format", "chat", "-"}, stdin: cleanRecord + "\n", want: 0},
	})
}

// Nothing checked is not a pass.
func TestNothingCheckedIsNotAPass(t *testing.T) {
	dir := t.TempDir()
	emptyDir := filepath.Join(dir, "none")
	if err := os.Mkdir(emptyDir, 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, emptyDir, "notes.txt", "not data\n")
	empty := writeFile(t, dir, "empty.jsonl", "\n  \n")
	good := writeFile(t, dir, "good.jsonl", cleanRecord+"\n")
	runGate(t, []gateCase{
		{name: "no input files", args: []string{"check", emptyDir}, want: 2,
			wantStderr: []string{"no input files found in " + emptyDir}},
		{name: "no rule active", args: []string{"check", "--no-builtin", good}, want: 2,
			wantStderr: []string{"no rule is active"}},
		{name: "every rule disabled is no rule either", args: []string{"check", "--no-builtin", "--pack", filepath.Join(repo, "fixtures/packs/team"),
			"--disable", "no-empty-assistant", "--disable", "system-prompt-first", good}, want: 2, wantStderr: []string{"no rule is active"}},
		{name: "empty file is a warning", args: []string{"check", empty, good}, want: 0,
			wantOut: []string{empty + ": warning: empty: no record, nothing was checked", "0 errors, 1 warning, 0 infos (2 files, 1 record; empty: 1 file, 0 records; chat: 1 file, 1 record)"}},
		{name: "fail on warning fails on an empty file", args: []string{"check", "--fail-on", "warning", empty}, want: 1},
		{name: "-v lists every input", args: []string{"check", "-v", empty, good}, want: 0,
			wantOut: []string{good + ": chat, 1 record\n"}},
		{name: "unknown profile", args: []string{"check", "--profile", "strict", good}, want: 2,
			wantStderr: []string{`--profile: unknown profile "strict" (the active packs know default, openai, mistral, together, bedrock, export)`}},
	})
}

// The JSON summary names each input, unreadable ones included.
func TestJSONSummaryInputs(t *testing.T) {
	dir := t.TempDir()
	good := writeFile(t, dir, "good.jsonl", cleanRecord+"\n")
	missing := filepath.Join(dir, "missing.jsonl")
	out, _, code := chatlint(t, "", "check", "-o", "json", good, missing)
	if code != 2 {
		t.Fatalf("exit %d, want 2", code)
	}
	var got struct {
		Summary struct {
			Inputs []map[string]any `json:"inputs"`
		} `json:"summary"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	want := []map[string]any{
		{"file": good, "format": "chat", "records": 1.0},
		{"file": missing, "records": 0.0, "error": "stat " + missing + ": no such file or directory"},
	}
	if diff := cmp.Diff(want, got.Summary.Inputs); diff != "" {
		t.Errorf("inputs (-want +got):\n%s", diff)
	}
}

// A pack's malformed output is a policy error naming rule and record.
func TestMalformedPackOutput(t *testing.T) {
	pack := filepath.Join(t.TempDir(), "bad")
	if err := os.Mkdir(pack, 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, pack, "bad.rego", `package chatlint.bad

# METADATA
# description: Reports with a number as message.
# custom:
#   id: numeric-msg
deny contains {"rule": "numeric-msg", "msg": 3} if true

# METADATA
# description: Reports a message past the document.
# custom:
#   id: past-end
deny contains {"rule": "past-end", "msg": "x", "message_index": 9} if true

# METADATA
# description: Reports with an unknown severity.
# custom:
#   id: odd-severity
deny contains {"rule": "odd-severity", "msg": "x", "severity": "fatal"} if true

deny contains {"rule": "undeclared", "msg": "x"} if true
`)
	rec := `{"id":"conv-7","messages":[{"role":"user","content":"x"}]}`
	runGate(t, []gateCase{{name: "malformed", args: []string{"check", "--no-builtin", "--pack", pack, "-"}, stdin: rec + "\n", want: 2,
		wantOut: []string{
			"<stdin>:1: error policy-error: record conv-7: pack bad: rule numeric-msg: a finding has msg 3, not a non-empty string",
			`pack bad: rule "undeclared" is not declared`,
			`pack bad: rule odd-severity: a finding has severity "fatal"`,
			`<stdin>:1: error policy-error: record conv-7: pack bad: rule past-end: a finding names "/messages/9", which the document does not have`,
		},
		notOut: []string{"<stdin>:1: <stdin>:1:", "error past-end", "error numeric-msg"},
	}})
}

// No false alarms: the default profile on canonical data, the strict
// profile where the data is not what an export must be.
func TestProfiles(t *testing.T) {
	dir := t.TempDir()
	target := writeFile(t, dir, "ft.jsonl", `{"messages":[{"role":"user","content":"weather?"},{"role":"assistant","tool_calls":[{"id":"c1","type":"function","function":{"name":"get_weather","arguments":"{}"}}]}],"tools":[{"type":"function","function":{"name":"get_weather","parameters":{"type":"object","properties":{}}}}]}`+"\n")
	plain := writeFile(t, dir, "plain.jsonl", cleanRecord+"\n")
	runGate(t, []gateCase{
		{name: "training target", args: []string{"check", target}, want: 0},
		{name: "training target under export", args: []string{"check", "--profile", "export", target}, want: 1, wantOut: []string{"ft.jsonl:1: error tool-result-missing"}},
		{name: "plain chat", args: []string{"check", plain}, want: 0},
		{name: "plain chat under export", args: []string{"check", "--profile", "export", plain}, want: 1, wantOut: []string{"plain.jsonl:1: error tools-shape"}},
	})
}

// Anthropic Messages records pair tool_use with tool_result blocks.
func TestAnthropicRecord(t *testing.T) {
	rec := `{"messages":[{"role":"user","content":"weather?"},{"role":"assistant","content":[{"type":"tool_use","id":"toolu_1","name":"get_weather","input":{"city":"Paris"}}]},{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","content":"18C"}]},{"role":"assistant","content":"18C."}],"tools":[{"name":"get_weather","input_schema":{"type":"object","properties":{"city":{"type":"string"}}}}]}`
	runGate(t, []gateCase{{name: "paired", args: []string{"check", "-"}, stdin: rec + "\n", want: 0}})
}

// A line over --max-line-size is a finding; the rest is still checked.
func TestMaxLineSize(t *testing.T) {
	long := `{"messages":[{"role":"user","content":"` + strings.Repeat("x", 2000) + `"}]}`
	runGate(t, []gateCase{
		{name: "long line", args: []string{"check", "--max-line-size", "1KiB", "-"}, stdin: long + "\n" + emptyTurn + "\n", want: 1,
			wantOut: []string{"<stdin>:1: error line-too-long: the line is 2043 bytes long, over the limit of 1024 bytes (--max-line-size); it was skipped",
				"(1 file, 2 records; chat: 1 file, 2 records)"}},
		{name: "bad size", args: []string{"check", "--max-line-size", "lots", "-"}, want: 2, wantStderr: []string{"--max-line-size: want a positive size"}},
	})
}

// Walked folders yield regular files only; a named non-regular file is an
// error naming it. /dev/zero linked into a folder is not read.
func TestRegularFilesOnly(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("unix files")
	}
	dir := t.TempDir()
	writeFile(t, dir, "a.jsonl", cleanRecord+"\n")
	if err := os.Symlink("/dev/zero", filepath.Join(dir, "z.jsonl")); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "f.jsonl")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip("mkfifo:", err)
	}
	runGate(t, []gateCase{
		{name: "walk", args: []string{"check", dir}, want: 0, wantOut: []string{"(1 file, 1 record; chat: 1 file, 1 record)"}},
		{name: "named device", args: []string{"check", filepath.Join(dir, "z.jsonl")}, want: 2,
			wantStderr: []string{"read " + filepath.Join(dir, "z.jsonl") + ": not a regular file"}},
		{name: "named fifo", args: []string{"check", fifo}, want: 2, wantStderr: []string{"read " + fifo + ": not a regular file"}},
	})
}

// Text and GitHub output escape control characters a record holds.
func TestSafeTerminalOutput(t *testing.T) {
	rec := `{"messages":[{"role":"user","content":"x"},{"role":"assistant","content":null,"function_call":{"name":"a\u001b[2Jb\u0007\r\nfake.jsonl:1: error x: y","arguments":"{}"}}]}`
	for _, format := range []string{"text", "github"} {
		out, _, _ := chatlint(t, rec+"\n", "check", "-o", format, "-")
		if strings.ContainsAny(out, "\x1b\x07\r") {
			t.Errorf("%s output holds control characters: %q", format, out)
		}
		if !strings.Contains(out, `a\x1b[2Jb\x07\r\nfake.jsonl:1: error x: y`) {
			t.Errorf("%s output lacks the escaped name:\n%s", format, out)
		}
		if strings.Count(out, "\n") != 2 {
			t.Errorf("%s output is not one finding and the summary:\n%s", format, out)
		}
	}
}

// The small things.
func TestSmallThings(t *testing.T) {
	dir := t.TempDir()
	arr := writeFile(t, dir, "a.json", "[\n  {\n    \"messages\": [\n      {\"role\": \"user\", \"content\": \"x\"},\n      {\"role\": \"tool\", \"tool_call_id\": \"c9\", \"content\": \"ok\"}\n    ]\n  }\n]\n")
	runGate(t, []gateCase{
		{name: "fail-on message", args: []string{"check", "--fail-on", "bogus", "-"}, want: 2,
			wantStderr: []string{`--fail-on: want error, warning, info or never, not "bogus"`}},
		// rules evaluates nothing, so it takes no time limit (test does: it
		// checks the packs' fixtures).
		{name: "rules has no --record-timeout", args: []string{"rules", "--record-timeout", "1s"}, want: 2, wantStderr: []string{"unknown flag: --record-timeout"}},
		{name: "rules has no --rule-timeout", args: []string{"rules", "--rule-timeout", "1s"}, want: 2, wantStderr: []string{"unknown flag: --rule-timeout"}},
		{name: "a .json array's finding is on its message's line", args: []string{"check", arr}, want: 1,
			wantOut: []string{"a.json:5: error tool-result-orphan"}},
	})
}

// The config file chooses the profile and the line bound as the flags do.
func TestConfigProfile(t *testing.T) {
	dir := t.TempDir()
	plain := writeFile(t, dir, "plain.jsonl", cleanRecord+"\n")
	cfg := writeFile(t, dir, "c.yaml", "profile: export\nmax_line_size: 1MiB\n")
	bad := writeFile(t, dir, "bad.yaml", "profile: exprot\n")
	runGate(t, []gateCase{
		{name: "profile from the config", args: []string{"check", "--config", cfg, plain}, want: 1, wantOut: []string{"error tools-shape"}},
		{name: "the flag wins", args: []string{"check", "--config", cfg, "--profile", "default", plain}, want: 0},
		{name: "a misspelt profile", args: []string{"check", "--config", bad, plain}, want: 2, wantStderr: []string{`unknown profile "exprot"`}},
	})
}
