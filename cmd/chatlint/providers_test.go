package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// providerProfiles are the profiles that stand for a provider's validator.
var providerProfiles = []string{"openai", "mistral", "together", "bedrock"}

// minRecords is the fewest records a provider takes in a file: a case is
// padded to it, so that its verdict is about its defect alone.
var minRecords = map[string]int{"openai": 10, "bedrock": 32}

// Under --profile P, check exits 0 exactly when P's validator would take the
// file: every fixture folder of the finetune pack that runs under a provider
// profile holds a file with one kind of defect (bad.jsonl), which P refuses,
// and its control (good.jsonl), which P takes — with every other rule of
// every pack on, chatlint's own checks reporting warnings. A case shorter
// than the provider's minimum is padded with copies of its own lines
// (copies are a warning), after its blank lines and BOM, which stay where
// they are.
func TestProviderVerdicts(t *testing.T) {
	dirs, _ := filepath.Glob(filepath.Join(repo, "policies", "finetune", "tests", "*"))
	seen := map[string]int{}
	for _, d := range dirs {
		p, err := os.ReadFile(filepath.Join(d, "profile"))
		profile := strings.TrimSpace(string(p))
		if err != nil || !slices.Contains(providerProfiles, profile) {
			continue
		}
		// A case whose findings are warnings (chatlint's own checks, or
		// what the provider takes and only notes) is one P takes.
		refuses := 0
		if exp, err := os.ReadFile(filepath.Join(d, "expected.json")); err == nil && bytes.Contains(exp, []byte(`"severity": "error"`)) {
			refuses = 1
		}
		for _, tc := range []struct {
			file string
			want int
		}{{"bad.jsonl", refuses}, {"good.jsonl", 0}} {
			data, err := os.ReadFile(filepath.Join(d, tc.file))
			if err != nil {
				continue
			}
			name := filepath.Base(d) + "/" + tc.file
			t.Run(name, func(t *testing.T) {
				if !strings.HasPrefix(filepath.Base(d), "dataset-too-") { // there the count is the case
					data = padded(data, minRecords[profile])
				}
				in := writeFile(t, t.TempDir(), "train.jsonl", string(data))
				out, errOut, code := chatlint(t, "", "check", "--profile", profile, in)
				if code != tc.want {
					t.Errorf("check --profile %s %s: exit %d, want %d\n%s%s", profile, name, code, tc.want, out, errOut)
				}
			})
			seen[profile]++
		}
	}
	for _, p := range providerProfiles {
		if seen[p] < 4 {
			t.Errorf("profile %s: %d verdict cases; the provider's checks are not held", p, seen[p])
		}
	}
}

// padded repeats the records of data until it holds n lines with a record.
func padded(data []byte, n int) []byte {
	var recs [][]byte
	for _, l := range bytes.Split(data, []byte("\n")) {
		l = bytes.TrimPrefix(l, []byte("\xef\xbb\xbf"))
		if len(bytes.TrimSpace(l)) > 0 {
			recs = append(recs, l)
		}
	}
	if len(recs) == 0 || len(recs) >= n {
		return data
	}
	out := slices.Clone(data)
	if len(out) > 0 && out[len(out)-1] != '\n' {
		out = append(out, '\n')
	}
	for i := len(recs); i < n; i++ {
		out = append(append(out, recs[i%len(recs)]...), '\n')
	}
	return out
}

// rules --profile P lists the severity check reports under P, for every
// rule that fires on the finetune pack's fixtures.
func TestRulesAndCheckAgreeOnSeverities(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(repo, "policies", "finetune", "tests", "*", "bad.jsonl"))
	files = append(files, filepath.Join(repo, "fixtures", "sample"), filepath.Join(repo, "fixtures", "formats"))
	for _, p := range providerProfiles {
		listing, _, code := chatlint(t, "", "rules", "--profile", p, "-o", "json")
		if code != 0 {
			t.Fatalf("rules --profile %s: exit %d", p, code)
		}
		var rules []struct{ ID, Severity string }
		if err := json.Unmarshal([]byte(listing), &rules); err != nil {
			t.Fatal(err)
		}
		listed := map[string]string{}
		for _, r := range rules {
			listed[r.ID] = r.Severity
		}
		out, _, _ := chatlint(t, "", append([]string{"check", "--profile", p, "-o", "json"}, files...)...)
		var rep struct {
			Findings []struct{ Rule, Severity string }
		}
		if err := json.Unmarshal([]byte(out), &rep); err != nil {
			t.Fatalf("check -o json: %v", err)
		}
		got, want := map[string]string{}, map[string]string{}
		for _, f := range rep.Findings {
			if f.Severity == "info" {
				continue
			}
			if f.Severity == "warning" && listed[f.Rule] == "warning" || f.Severity == listed[f.Rule] {
				continue
			}
			got[f.Rule], want[f.Rule] = f.Severity, listed[f.Rule]
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("profile %s: check reports (+) what rules lists (-):\n%s", p, diff)
		}
		if listed["tool-call-undeclared"] != "warning" {
			t.Errorf("profile %s: tool-call-undeclared listed as %s, want warning", p, listed["tool-call-undeclared"])
		}
	}
}

// The default profile keeps taking a BOM and blank lines.
func TestDefaultProfileTakesBOMAndBlankLines(t *testing.T) {
	in := writeFile(t, t.TempDir(), "train.jsonl", "\xef\xbb\xbf"+cleanRecord+"\n\n"+cleanRecord+"\n \n")
	if out, errOut, code := chatlint(t, "", "check", in); code != 0 {
		t.Errorf("exit %d\n%s%s", code, out, errOut)
	}
	if out, _, code := chatlint(t, "", "check", "--profile", "together", in); code != 1 || !strings.Contains(out, "file-bom") || strings.Count(out, "file-blank-line") != 2 {
		t.Errorf("--profile together: exit %d\n%s", code, out)
	}
}

// convert --to openai reads the provider formats: an instruction record is
// a user and an assistant message, a preference record is written as it
// is, a text record gives no example and says why.
func TestConvertProviderFormats(t *testing.T) {
	t.Chdir(repo)
	out, errOut, code := chatlint(t, "", "convert", "--to", "openai", "fixtures/formats/instruction-alpaca.jsonl")
	want := `{"messages":[{"role":"user","content":"Summarize the sentence in five words.\n\nThe committee postponed the vote because two members were travelling abroad."},{"role":"assistant","content":"Vote postponed: members were away."}]}` + "\n" +
		`{"messages":[{"role":"user","content":"List three primary colours."},{"role":"assistant","content":"Red, yellow and blue."}]}` + "\n"
	if code != 0 || out != want {
		t.Errorf("alpaca: exit %d\n%s", code, cmp.Diff(want, out)+errOut)
	}
	pref := mustRead(t, "fixtures/formats/preference.jsonl")
	if out, errOut, code := chatlint(t, "", "convert", "--to", "openai", "fixtures/formats/preference.jsonl"); code != 0 || out != pref {
		t.Errorf("preference: exit %d\n%s", code, cmp.Diff(pref, out)+errOut)
	}
	if out, errOut, code := chatlint(t, "", "convert", "--to", "openai", "fixtures/formats/text.jsonl"); code != 1 || out != "" || !strings.Contains(errOut, "holds no conversation") {
		t.Errorf("text: exit %d\n%s%s", code, out, errOut)
	}
}

// rules explain names where a provider rule comes from, and under which
// profiles a rule of chatlint's own reports warnings.
func TestExplainShowsSourcesAndProfileSeverities(t *testing.T) {
	out, _, code := chatlint(t, "", "rules", "explain", "together-weight")
	if code != 0 || !strings.Contains(out, "refs:     togethercomputer/together-python src/together/utils/files.py@0890d35ff2b79b91bba7736d908a7ab58b806c10") {
		t.Errorf("explain together-weight: exit %d\n%s", code, out)
	}
	out, _, code = chatlint(t, "", "rules", "explain", "tool-result-missing")
	if code != 0 || !strings.Contains(out, "under:    bedrock, mistral, openai, together: warning") {
		t.Errorf("explain tool-result-missing: exit %d\n%s", code, out)
	}
	out, _, _ = chatlint(t, "", "rules", "explain", "role-unknown")
	if strings.Contains(out, "under:") {
		t.Errorf("role-unknown is every provider's check, yet explain lists other severities:\n%s", out)
	}
}
