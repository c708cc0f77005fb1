package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/chatlint/chatlint/cmd/chatlint/internal/cmdutil"
)

// TestFixNonObjectLines: fix moves a line that is JSON but not an object to
// the rejects file, and check still reports it on the input.
func TestFixNonObjectLines(t *testing.T) {
	dir := t.TempDir()
	in := writeFile(t, dir, "a.jsonl", "[1, 2]\n"+cleanRecord+"\n\"x\"\n42\n")
	out := filepath.Join(dir, "out.jsonl")
	stdout, stderr, code := chatlint(t, "", "fix", "-o", out, in)
	if code != 0 {
		t.Fatalf("exit %d\n%s%s", code, stdout, stderr)
	}
	if got := mustRead(t, out); got != cleanRecord+"\n" {
		t.Errorf("output = %q", got)
	}
	var data []string
	for _, l := range strings.Split(strings.TrimSpace(mustRead(t, out+".rejects.jsonl")), "\n") {
		var r struct {
			Line int             `json:"line"`
			Rule string          `json:"rule"`
			Op   string          `json:"op"`
			Data json.RawMessage `json:"data"`
		}
		if err := json.Unmarshal([]byte(l), &r); err != nil {
			t.Fatal(err)
		}
		data = append(data, strings.Join([]string{strconv.Itoa(r.Line), r.Rule, r.Op, string(r.Data)}, " "))
	}
	want := []string{"1 jsonl-syntax drop_line [1, 2]", `3 jsonl-syntax drop_line "x"`, "4 jsonl-syntax drop_line 42"}
	if diff := cmp.Diff(want, data); diff != "" {
		t.Errorf("rejects (-want +got):\n%s", diff)
	}
	if !strings.Contains(stderr, "a.jsonl:1: warning jsonl-syntax: a record must be a JSON object, not an array; moved to the rejects file") {
		t.Errorf("stderr:\n%s", stderr)
	}
	checkOut, _, code := chatlint(t, "", "check", "--allow-no-tools", in)
	for _, l := range []string{":1: error jsonl-syntax", ":3: error jsonl-syntax", ":4: error jsonl-syntax"} {
		if code != 1 || !strings.Contains(checkOut, l) {
			t.Errorf("check: exit %d, no %q in:\n%s", code, l, checkOut)
		}
	}
}

// TestFixUnrecognizedFormat: a file whose records fit no known format is
// not fixed and nothing is written for it; with good files beside it, they
// are fixed, and the run exits 2 naming the file skipped.
func TestFixUnrecognizedFormat(t *testing.T) {
	const unknown = `{"dialogue":[{"speaker":"human","text":"hi"}]}` + "\n" + `[1]` + "\n"
	for _, c := range []struct {
		name    string
		files   map[string]string
		args    func(dir string) []string
		written []string // files under dir after the run, besides the inputs
	}{
		{"one file to -o", map[string]string{"u.jsonl": unknown},
			func(d string) []string {
				return []string{"-o", filepath.Join(d, "out.jsonl"), filepath.Join(d, "u.jsonl")}
			}, nil},
		{"a non-object line first, then no object", map[string]string{"u.jsonl": "[1]\n\"x\"\n"},
			func(d string) []string {
				return []string{"-o", filepath.Join(d, "out.jsonl"), filepath.Join(d, "u.jsonl")}
			}, nil},
		{"a folder to -o", map[string]string{"in/u.jsonl": unknown, "in/g.jsonl": needsFix + "\n"},
			func(d string) []string { return []string{"-o", filepath.Join(d, "out") + "/", filepath.Join(d, "in")} },
			[]string{"out/" + "in/g.jsonl", "out/in/g.jsonl.rejects.jsonl"}},
		{"a folder in place", map[string]string{"in/u.jsonl": unknown, "in/g.jsonl": needsFix + "\n"},
			func(d string) []string { return []string{"--in-place", filepath.Join(d, "in")} },
			[]string{"in/g.jsonl.bak-*", "in/g.jsonl.rejects.jsonl"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			for name, data := range c.files {
				os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755)
				writeFile(t, dir, name, data)
			}
			args := c.args(dir)
			if strings.HasSuffix(args[1], "/") {
				// -o DIR/ writes each input under its path as given: run from dir.
				t.Chdir(dir)
				args = []string{"-o", "out/", "in"}
			}
			stdout, stderr, code := chatlint(t, "", append([]string{"fix"}, args...)...)
			if code != cmdutil.ExitError {
				t.Errorf("exit %d, want 2\n%s%s", code, stdout, stderr)
			}
			if !strings.Contains(stderr, "u.jsonl: not fixed, nothing written for it") {
				t.Errorf("stderr does not name the file:\n%s", stderr)
			}
			if !strings.Contains(stdout, "u.jsonl: not written (") {
				t.Errorf("stdout:\n%s", stdout)
			}
			var got []string
			filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
				rel, _ := filepath.Rel(dir, p)
				if err == nil && !d.IsDir() && c.files[rel] == "" {
					got = append(got, rel)
				}
				return nil
			})
			if len(got) != len(c.written) {
				t.Fatalf("written: %v, want %v", got, c.written)
			}
			for i, pat := range c.written {
				if ok, _ := filepath.Match(pat, got[i]); !ok {
					t.Errorf("written: %v, want %v", got, c.written)
				}
			}
			for name, data := range c.files {
				if mustRead(t, filepath.Join(dir, name)) != data && !strings.HasSuffix(name, "g.jsonl") {
					t.Errorf("%s changed", name)
				}
			}
			if c.written != nil && !strings.Contains(stdout, "g.jsonl: 1 of 1 record changed") {
				t.Errorf("the good file was not fixed:\n%s", stdout)
			}
		})
	}
}

// llamaFactory is a LLaMA-Factory tool-use record in the OpenAI messages
// layout: parts keyed value, calls as JSON strings in tool_call parts,
// results without ids, tools as a JSON string.
const llamaFactory = `{"messages":[{"role":"user","content":[{"type":"text","value":"What is 6*8?"}]},{"role":"assistant","content":[{"type":"tool_call","value":"{\"name\": \"multiply\", \"arguments\": {\"a\": 6, \"b\": 8}}"}]},{"role":"tool","content":[{"type":"text","value":"48"}]},{"role":"assistant","content":[{"type":"text","value":"48."}]}],"tools":"[{\"type\": \"function\", \"function\": {\"name\": \"multiply\"}}]"}`

const unknownPart = `{"messages":[{"role":"user","content":[{"type":"hologram","data":"x"}]},{"role":"tool","tool_call_id":"zz","content":"lost result"},{"role":"assistant","content":"ok"}]}`

// TestFixLeavesUnreadableRecords: a record whose parts fix cannot read is
// written as it was, with a note, by either pack; nothing is dropped, and
// the run says some record was left as it was (exit 1).
func TestFixLeavesUnreadableRecords(t *testing.T) {
	for _, pack := range []string{"builtin:openai-tools", "builtin:transcript"} {
		t.Run(pack, func(t *testing.T) {
			dir := t.TempDir()
			// The LLaMA-Factory record is read (its call and result paired by
			// order) and clean: it is written as it was, with no note. The
			// record with a part of an unknown type and a stray result is
			// left as it was, with a note.
			in := writeFile(t, dir, "lf.jsonl", llamaFactory+"\n"+unknownPart+"\n"+needsFix+"\n")
			out := filepath.Join(dir, "out.jsonl")
			stdout, stderr, code := chatlint(t, "", "fix", "--pack", pack, "-o", out, in)
			if code != cmdutil.ExitFindings {
				t.Errorf("exit %d, want 1\n%s%s", code, stdout, stderr)
			}
			if got := mustRead(t, out); got != llamaFactory+"\n"+unknownPart+"\n"+fixedRec+"\n" {
				t.Errorf("output:\n%s", got)
			}
			if r := mustRead(t, out+".rejects.jsonl"); strings.Contains(r, "multiply") || strings.Contains(r, "hologram") || strings.Contains(r, "lost result") {
				t.Errorf("a piece of a record fix does not change is in the rejects:\n%s", r)
			}
			if strings.Contains(stderr, "lf.jsonl:1:") || !strings.Contains(stderr, "lf.jsonl:2: warning ") || !strings.Contains(stderr, `unreadable: message 0: content part 0 is of type "hologram", which fix does not know; the record was left as it was`) {
				t.Errorf("stderr:\n%s", stderr)
			}
		})
	}
}

// TestFixJSONDocument: a .json array is fixed like JSON Lines, written as
// JSON Lines to -o OUT.jsonl and as an array again in place; untouched
// records keep their content (and, in place, their bytes).
func TestFixJSONDocument(t *testing.T) {
	untouched := "{\n    \"id\": \"r2\",\n    \"messages\": [{\"role\": \"user\", \"content\": \"q\"}, {\"role\": \"assistant\", \"content\": \"ok\", \"n\": 1.50}]\n  }"
	doc := "[\n  {\n    \"id\": \"r1\",\n    \"messages\": [\n      {\"role\": \"user\", \"content\": \"q\"},\n      {\"role\": \"tool\", \"tool_call_id\": \"c9\", \"content\": \"stray\"},\n      {\"role\": \"assistant\", \"content\": \"a\"}\n    ]\n  },\n  " + untouched + "\n]\n"
	dir := t.TempDir()
	in := writeFile(t, dir, "d.json", doc)

	// The dry run shows each record as one JSON line, however it was laid out.
	stdout, _, _ := chatlint(t, "", "fix", "--dry-run", in)
	wantDiff := "-{\"id\":\"r1\",\"messages\":[{\"role\":\"user\",\"content\":\"q\"},{\"role\":\"tool\",\"tool_call_id\":\"c9\",\"content\":\"stray\"},{\"role\":\"assistant\",\"content\":\"a\"}]}\n" +
		"+{\"id\":\"r1\",\"messages\":[{\"role\":\"user\",\"content\":\"q\"},{\"role\":\"assistant\",\"content\":\"a\"}]}\n"
	if !strings.Contains(stdout, wantDiff) {
		t.Errorf("dry run:\n%s\nwant:\n%s", stdout, wantDiff)
	}

	out := filepath.Join(dir, "out.jsonl")
	stdout, stderr, code := chatlint(t, "", "fix", "-o", out, in)
	if code != 0 {
		t.Fatalf("exit %d\n%s%s", code, stdout, stderr)
	}
	want := `{"id":"r1","messages":[{"role":"user","content":"q"},{"role":"assistant","content":"a"}]}` + "\n" +
		`{"id":"r2","messages":[{"role":"user","content":"q"},{"role":"assistant","content":"ok","n":1.50}]}` + "\n"
	if diff := cmp.Diff(want, mustRead(t, out)); diff != "" {
		t.Errorf("-o out.jsonl (-want +got):\n%s", diff)
	}
	if !strings.Contains(mustRead(t, out+".rejects.jsonl"), `"line":2,"record":"r1","rule":"tool-result-unknown-id"`) {
		t.Errorf("rejects:\n%s", mustRead(t, out+".rejects.jsonl"))
	}

	stdout, stderr, code = chatlint(t, "", "fix", "--in-place", in)
	if code != 0 {
		t.Fatalf("in place: exit %d\n%s%s", code, stdout, stderr)
	}
	got := mustRead(t, in)
	changed := "{\n    \"id\": \"r1\",\n    \"messages\": [\n      {\n        \"role\": \"user\",\n        \"content\": \"q\"\n      },\n      {\n        \"role\": \"assistant\",\n        \"content\": \"a\"\n      }\n    ]\n  }"
	if diff := cmp.Diff("[\n  "+changed+",\n  "+untouched+"\n]\n", got); diff != "" {
		t.Errorf("in place (-want +got):\n%s", diff)
	}
	var v []any
	if err := json.Unmarshal([]byte(got), &v); err != nil || len(v) != 2 {
		t.Errorf("not a JSON array of 2 records: %v", err)
	}
	if baks := backups(t, in); len(baks) != 1 || mustRead(t, baks[0]) != doc {
		t.Errorf("backups: %v", baks)
	}
	// A second run changes nothing.
	stdout, _, code = chatlint(t, "", "fix", "--in-place", in)
	if code != 0 || !strings.Contains(stdout, "unchanged") || !bytes.Equal([]byte(mustRead(t, in)), []byte(got)) {
		t.Errorf("second run: exit %d\n%s", code, stdout)
	}

	// A .json that is not one JSON value is not fixed.
	bad := writeFile(t, dir, "bad.json", `[{"messages":[]},`)
	_, stderr, code = chatlint(t, "", "fix", "-o", filepath.Join(dir, "bad.out.jsonl"), bad)
	if code != cmdutil.ExitError || !strings.Contains(stderr, "bad.json: not fixed, nothing written for it") {
		t.Errorf("broken .json: exit %d\n%s", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "bad.out.jsonl")); err == nil {
		t.Error("broken .json: something was written")
	}
}
