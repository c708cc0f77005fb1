package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// denseRecord is a chat record of n short messages: 3n+1 values, so a few
// hundred of them are over a --max-record-values of 1000 while the file
// stays small.
func denseRecord(n int) string {
	var b strings.Builder
	b.WriteString(`{"messages":[`)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		if i%2 == 0 {
			b.WriteString(`{"role":"user","content":"xyz"}`)
		} else {
			b.WriteString(`{"role":"assistant","content":"xyz"}`)
		}
	}
	b.WriteString(`]}`)
	return b.String()
}

// TestRecordTooDenseReported: a record that builds more values than
// --max-record-values is an error finding record-too-dense at its line,
// naming the bound and the flag; the run goes on (the records around it
// are read) and exits 1, in check, check --profile openai and stats, and
// whether or not the record is the file's first (detection reads it). Under
// the default bound the same file has no such finding.
func TestRecordTooDenseReported(t *testing.T) {
	dense := denseRecord(400)
	for _, tc := range []struct {
		name, input string
		line        string
	}{
		{"middle", cleanRecord + "\n" + dense + "\n" + cleanRecord + "\n", "a.jsonl:2: error record-too-dense: "},
		{"first", dense + "\n" + cleanRecord + "\n" + cleanRecord + "\n", "a.jsonl:1: error record-too-dense: "},
	} {
		for _, args := range [][]string{{"check"}, {"check", "--profile", "openai"}, {"stats"}} {
			t.Run(tc.name+"/"+strings.Join(args, " "), func(t *testing.T) {
				dir := t.TempDir()
				p := writeFile(t, dir, "a.jsonl", tc.input)
				stdout, stderr, code := chatlint(t, "", append(args, "--max-record-values", "1000", p)...)
				out := stdout + stderr
				if code != 1 {
					t.Errorf("exit %d, want 1\n%s", code, out)
				}
				for _, want := range []string{tc.line, "more than 1000 values", "--max-record-values"} {
					if !strings.Contains(out, want) {
						t.Errorf("output lacks %q:\n%s", want, out)
					}
				}
				if args[0] == "stats" && !strings.Contains(stdout, "\n        2 ") {
					t.Errorf("stats did not count the two other records:\n%s", stdout)
				}
				stdout, stderr, _ = chatlint(t, "", append(args, p)...)
				if strings.Contains(stdout+stderr, "record-too-dense") {
					t.Errorf("default bound: %s%s", stdout, stderr)
				}
			})
		}
	}
}

// TestRecordTooDenseConfig: max_record_values in .chatlint.yaml sets
// check's bound as max_line_size sets its line bound, and the flag wins.
func TestRecordTooDenseConfig(t *testing.T) {
	dir := t.TempDir()
	p := writeFile(t, dir, "a.jsonl", denseRecord(400)+"\n")
	cfg := writeFile(t, dir, "c.yaml", "max_record_values: 1000\n")
	if stdout, _, code := chatlint(t, "", "check", "--config", cfg, p); code != 1 || !strings.Contains(stdout, "record-too-dense") {
		t.Errorf("config bound: exit %d\n%s", code, stdout)
	}
	if stdout, _, code := chatlint(t, "", "check", "--config", cfg, "--max-record-values", "5000", p); code != 0 {
		t.Errorf("flag over config: exit %d\n%s", code, stdout)
	}
	bad := writeFile(t, dir, "bad.yaml", "max_record_values: lots\n")
	if _, stderr, code := chatlint(t, "", "check", "--config", bad, p); code != 2 || !strings.Contains(stderr, "max_record_values") {
		t.Errorf("bad config value: exit %d\n%s", code, stderr)
	}
	if _, stderr, code := chatlint(t, "", "check", "--max-record-values", "0", p); code != 2 || !strings.Contains(stderr, "--max-record-values") {
		t.Errorf("--max-record-values 0: exit %d\n%s", code, stderr)
	}
}

// TestFixTooDenseKept: fix writes a record over --max-record-values back
// byte for byte with a record-too-dense note (exit 1), never drops or
// empties it, and fixes the rest of the file as usual, in every mode; a
// dense first record (read by detection) as well.
func TestFixTooDenseKept(t *testing.T) {
	dense := denseRecord(400)
	for _, order := range []string{"middle", "first"} {
		input := needsFix + "\n" + dense + "\n" + cleanRecord + "\n"
		want := fixedRec + "\n" + dense + "\n" + cleanRecord + "\n"
		line := "a.jsonl:2: error record-too-dense: "
		if order == "first" {
			input = dense + "\n" + needsFix + "\n" + cleanRecord + "\n"
			want = dense + "\n" + fixedRec + "\n" + cleanRecord + "\n"
			line = "a.jsonl:1: error record-too-dense: "
		}
		for _, mode := range []string{"-o", "--in-place", "--dry-run"} {
			t.Run(order+"/"+mode, func(t *testing.T) {
				dir := t.TempDir()
				p := writeFile(t, dir, "a.jsonl", input)
				out := filepath.Join(dir, "out.jsonl")
				args := []string{"fix", "--max-record-values", "1000", mode}
				if mode == "-o" {
					args = append(args, out)
				}
				stdout, stderr, code := chatlint(t, "", append(args, p)...)
				if code != 1 {
					t.Errorf("exit %d, want 1\n%s%s", code, stdout, stderr)
				}
				for _, w := range []string{line, "more than 1000 values", "written back as it is", "--max-record-values"} {
					if !strings.Contains(stderr, w) {
						t.Errorf("stderr lacks %q:\n%s", w, stderr)
					}
				}
				switch mode {
				case "-o":
					if diff := cmp.Diff(want, mustRead(t, out)); diff != "" {
						t.Errorf("output (-want +got):\n%s", diff)
					}
				case "--in-place":
					if diff := cmp.Diff(want, mustRead(t, p)); diff != "" {
						t.Errorf("file (-want +got):\n%s", diff)
					}
				case "--dry-run":
					if got := mustRead(t, p); got != input {
						t.Errorf("--dry-run changed the input")
					}
					if !strings.Contains(stdout, "would fix 1 of ") {
						t.Errorf("stdout:\n%s", stdout)
					}
				}
				for _, q := range []string{p + ".rejects.jsonl", out + ".rejects.jsonl"} {
					if raw, err := os.ReadFile(q); err == nil && strings.Contains(string(raw), `"xyz"`) {
						t.Errorf("%s holds the dense record", filepath.Base(q))
					}
				}
			})
		}
	}
}

// TestConvertTooDenseNoted: convert --to openai leaves a record over
// --max-record-values out, names it in the notes (file:line, why), counts
// it in the notes' total, and converts the others.
func TestConvertTooDenseNoted(t *testing.T) {
	dir := t.TempDir()
	p := writeFile(t, dir, "a.jsonl", cleanRecord+"\n"+denseRecord(400)+"\n"+cleanRecord+"\n")
	out := filepath.Join(dir, "out.jsonl")
	_, stderr, code := chatlint(t, "", "convert", "--to", "openai", "--max-record-values", "1000", "-o", out, p)
	if code != 1 {
		t.Errorf("exit %d, want 1\n%s", code, stderr)
	}
	for _, w := range []string{"a.jsonl:2: error record-too-dense: ", "more than 1000 values", "into 2 openai example(s)", "; 1 note(s)"} {
		if !strings.Contains(stderr, w) {
			t.Errorf("stderr lacks %q:\n%s", w, stderr)
		}
	}
	if got := strings.Count(mustRead(t, out), "\n"); got != 2 {
		t.Errorf("%d examples written, want 2", got)
	}
}

// TestValidateInputTooDense: validate-input reports a line over
// --max-record-values as a record_too_dense error of its report, as it
// reports line_too_long, and validates the other lines.
func TestValidateInputTooDense(t *testing.T) {
	rec := func(id string, n int) string {
		msgs := make([]string, n)
		for i := range msgs {
			msgs[i] = `{"content": "hi", "role": "user"}`
		}
		return `{"conversation_id": "` + id + `", "user_id": "u", "timestamp": "2026-02-10", "messages": [` + strings.Join(msgs, ", ") + `]}` + "\n"
	}
	dir := t.TempDir()
	p := writeFile(t, dir, "in.jsonl", rec("c1", 1)+rec("c2", 400)+rec("c3", 1))
	stdout, stderr, code := chatlint(t, "", "validate-input", "--input", p, "--max-record-values", "1000")
	if code != 1 {
		t.Errorf("exit %d, want 1\n%s%s", code, stdout, stderr)
	}
	for _, want := range []string{"Valid conversations: 2", "line 2 [record_too_dense] ", "more than 1000 values"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, stdout)
		}
	}
	if stdout, _, code := chatlint(t, "", "validate-input", "--input", p); code != 0 {
		t.Errorf("default bound: exit %d\n%s", code, stdout)
	}
}

// TestSessionLineTooDense: in a session (a Codex rollout) a line over
// --max-record-values is reported at its line and the session is not
// checked further: judged without a line it holds, it would get findings
// of what it is not (an orphan result, a missing one). fix writes the
// session back whole, byte for byte.
func TestSessionLineTooDense(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join(repo, "fixtures/fix/codex-repairs/output.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(raw), "\n"), "\n")
	var extra strings.Builder
	for i := range 600 {
		if i > 0 {
			extra.WriteByte(',')
		}
		extra.WriteString(`{"a":1}`)
	}
	// The fourth line, a record of the session's middle, gains a member
	// no rule reads but every command builds whole: 1,201 values.
	lines[3] = strings.TrimSuffix(lines[3], "}") + `,"extra":[` + extra.String() + `]}`
	input := strings.Join(lines, "\n") + "\n"
	dir := t.TempDir()
	p := writeFile(t, dir, "rollout.jsonl", input)

	stdout, _, code := chatlint(t, "", "check", "--max-record-values", "1000", p)
	if code != 1 || !strings.Contains(stdout, "rollout.jsonl:4: error record-too-dense: ") || !strings.Contains(stdout, "1 error, 0 warnings") {
		t.Errorf("check: exit %d, want 1 and only record-too-dense:\n%s", code, stdout)
	}
	if stdout, _, _ := chatlint(t, "", "check", p); strings.Contains(stdout, "record-too-dense") {
		t.Errorf("default bound:\n%s", stdout)
	}
	out := filepath.Join(dir, "out.jsonl")
	_, stderr, code := chatlint(t, "", "fix", "--max-record-values", "1000", "-o", out, p)
	if code != 1 || !strings.Contains(stderr, "rollout.jsonl:4: error record-too-dense: ") {
		t.Errorf("fix: exit %d, want 1\n%s", code, stderr)
	}
	if got := mustRead(t, out); got != input {
		t.Errorf("fix did not write the session back byte for byte")
	}
}

// miniTrajectory is a mini-swe-agent trajectory of steps tool-call turns,
// read whole as one record: {info, messages, trajectory_format,
// instance_id}, each assistant message carrying its provider's response in
// extra, as SWE-agent/mini-swe-agent writes them (shape of
// output/deepseek_lite_dev/sqlfluff__sqlfluff-2419/sqlfluff__sqlfluff-2419.traj.json
// at 3c7d1d7f8fb8, refs/pull/814/head). Each step builds about 40 values
// over about 2.4 KB of text.
func miniTrajectory(steps int) string {
	var b strings.Builder
	b.WriteString(`{"info":{"model_stats":{"instance_cost":0.5,"api_calls":` + strconv.Itoa(steps) + `},"exit_status":"Submitted","submission":""},"messages":[`)
	b.WriteString(`{"role":"system","content":"You are a helpful assistant that can run shell commands."},`)
	b.WriteString(`{"role":"user","content":"Fix the failing test in the parser module."}`)
	out := strings.Repeat("collected 12 items; test_parser.py::test_nested PASSED\n", 30)
	for i := range steps {
		id := fmt.Sprintf("call_%06d", i)
		cmd := fmt.Sprintf(`{\"command\": \"grep -n parse src/module_%d.py | head -20\"}`, i)
		fmt.Fprintf(&b, `,{"role":"assistant","content":"Step %d: I will look at the next module.","tool_calls":[{"index":0,"function":{"arguments":"%s","name":"bash"},"id":"%s","type":"function"}],"function_call":null,"provider_specific_fields":{"refusal":null},"extra":{"actions":[{"command":"grep","tool_call_id":"%s"}],"response":{"id":"resp-%d","created":1700000000,"model":"example-chat","object":"chat.completion","choices":[{"finish_reason":"tool_calls","index":0,"message":{"content":"Step %d","role":"assistant"}}],"usage":{"completion_tokens":40,"prompt_tokens":900,"total_tokens":940}},"cost":0.001,"timestamp":1700000000.5}}`, i, cmd, id, id, i, i)
		fmt.Fprintf(&b, `,{"content":%q,"extra":{"returncode":0,"timestamp":1700000001.5},"tool_call_id":"%s","role":"tool"}`, out, id)
	}
	b.WriteString(`],"trajectory_format":"mini-swe-agent-1.1","instance_id":"example__parser-1"}`)
	return b.String()
}

// TestSparseDocumentChecked: a long trajectory read whole as one .json
// document builds more values than --max-record-values, yet holds a value
// per 48 bytes or more of its text: it is checked (up to four times the
// bound), with the findings an unbounded run gives, in every command; a
// record of the same values packed densely is still refused.
func TestSparseDocumentChecked(t *testing.T) {
	doc := miniTrajectory(40)
	dir := t.TempDir()
	p := writeFile(t, dir, "run.traj.json", doc)
	for _, args := range [][]string{{"check", "-o", "json"}, {"check", "--profile", "openai", "-o", "json"}, {"stats", "-o", "json"}} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			bounded, _, code := chatlint(t, "", append(args, "--max-record-values", "1000", p)...)
			if code == 2 || strings.Contains(bounded, "record-too-dense") {
				t.Fatalf("exit %d on a sparse document over the bound:\n%s", code, bounded)
			}
			whole, _, _ := chatlint(t, "", append(args, "--max-record-values", "1000000", p)...)
			if diff := cmp.Diff(whole, bounded); diff != "" {
				t.Errorf("output under the bound differs from an unbounded run (-unbounded +bounded):\n%s", diff)
			}
		})
	}
	if n := len(doc) / 48; n < 1000 {
		t.Fatalf("the trajectory is %d bytes: too short to be over the bound", len(doc))
	}
	dense := writeFile(t, dir, "dense.json", denseRecord(2000)) // a value per 13 bytes
	if stdout, _, code := chatlint(t, "", "check", "--max-record-values", "1000", dense); code != 1 || !strings.Contains(stdout, "more than 1000 values") {
		t.Errorf("a dense document of the same size: exit %d\n%s", code, stdout)
	}
}
