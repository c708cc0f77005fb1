package config

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

func TestParse(t *testing.T) {
	src := `packs: [builtin:integrity, ./policies/team]
rules:
  tools-shape: off
  tool-result-flagged: warning
  legacy-function-call: false
overrides:
  - files: ["data/legacy/**", "*.json"]
    rules: {legacy-function-call: info}
suppressions:
  - rule: tool-result-missing
    record: conv-9
    reason: known truncated export
fail_on: warning
format: chat
tool_calls: inline
allow_no_tools: true
output: [sarif=chatlint.sarif, text]
baseline: .chatlint-baseline.json
rule_timeout: 2s
`
	c, err := Parse("/repo/.chatlint.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	want := &Config{
		Path: "/repo/.chatlint.yaml", Dir: "/repo",
		Packs:        []string{"builtin:integrity", "./policies/team"},
		Rules:        map[string]Level{"tools-shape": Off, "tool-result-flagged": "warning", "legacy-function-call": Off},
		Overrides:    []Override{{Files: []string{"data/legacy/**", "*.json"}, Rules: map[string]Level{"legacy-function-call": "info"}, Line: 7}},
		Suppressions: []Suppression{{Rule: "tool-result-missing", Record: "conv-9", Reason: "known truncated export", Line: 10}},
		FailOn:       "warning", Format: "chat", ToolCalls: "inline", AllowNoTools: true,
		Output: []string{"sarif=chatlint.sarif", "text"}, Baseline: ".chatlint-baseline.json", RuleTimeout: 2 * time.Second,
	}
	if diff := cmp.Diff(want, c, cmpopts.IgnoreUnexported(Config{})); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	err = c.CheckRules(func(id string) bool { return id != "tool-result-flagged" && id != "tool-result-missing" })
	if diff := cmp.Diff(`/repo/.chatlint.yaml:4: unknown rule "tool-result-flagged" (chatlint rules lists them)
/repo/.chatlint.yaml:10: unknown rule "tool-result-missing" (chatlint rules lists them)`, errString(err)); diff != "" {
		t.Errorf("CheckRules (-want +got):\n%s", diff)
	}
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

func TestParseErrors(t *testing.T) {
	tests := []struct{ name, src, want string }{
		{"unknown key", "packs: []\nfailon: error\n", `c.yaml:2: unknown key "failon" in the config (valid keys: allow_no_tools, baseline, fail_on, format, max_line_size, max_record_values, output, overrides, packs, profile, rule_timeout, rules, suppressions, tool_calls)`},
		{"not a mapping", "- a\n", "c.yaml:1: the config must be a mapping"},
		{"twice", "fail_on: error\nfail_on: info\n", `c.yaml:2: key "fail_on" is given twice`},
		{"every error at once", "format: csv\nrule_timeout: soon\n", "c.yaml:1: format: \"csv\" is not one of " + strings.Join(formatNames(), ", ") + "\nc.yaml:2: rule_timeout: \"soon\" is not a positive duration such as 5s or 500ms"},
		{"override key", "overrides:\n  - files: [a]\n    rule: {x: off}\n", "c.yaml:3: unknown key \"rule\" in an override (valid keys: files, rules)\nc.yaml:2: an override needs rules: a map of rule id to level"},
		{"bad glob", "overrides:\n  - files: [\"[\"]\n    rules: {x: off}\n", `c.yaml:2: files: bad glob "[": syntax error in pattern`},
		{"suppression", "suppressions:\n  - rule: x\n", "c.yaml:2: a suppression needs record\nc.yaml:2: a suppression needs reason"},
		{"yaml syntax", "rules: {a: b\n", "c.yaml:1: did not find expected ',' or '}'"},
		{"packs type", "packs: {a: b}\n", "c.yaml:1: packs must be a list of strings"},
		{"bool", "allow_no_tools: maybe\n", "c.yaml:1: allow_no_tools: line 1: cannot unmarshal !!str `maybe` into bool"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse("c.yaml", []byte(tt.src))
			if diff := cmp.Diff(tt.want, errString(err)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestEmpty(t *testing.T) {
	c, err := Parse("c.yaml", []byte("# nothing yet\n"))
	if err != nil || c.Packs != nil || len(c.Rules) != 0 {
		t.Errorf("%+v, %v", c, err)
	}
}

func TestLevelFor(t *testing.T) {
	c, err := Parse("/repo/.chatlint.yaml", []byte(`rules: {r: warning}
overrides:
  - files: ["data/legacy/**"]
    rules: {r: off}
  - files: ["**/keep.jsonl"]
    rules: {r: error}
`))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		file string
		want Level
	}{
		{"/repo/data/new.jsonl", "warning"},
		{"/repo/data/legacy/a.jsonl", Off},
		{"/repo/data/legacy/deep/b.jsonl", Off},
		{"/repo/data/legacy/keep.jsonl", "error"}, // the later override wins
		{"/elsewhere/data/legacy/a.jsonl", "warning"},
		{"<stdin>", "warning"},
	}
	for _, tt := range tests {
		if got, _ := c.LevelFor("r", tt.file); got != tt.want {
			t.Errorf("%s: %q, want %q", tt.file, got, tt.want)
		}
	}
	if _, ok := c.LevelFor("other", "/repo/data/new.jsonl"); ok {
		t.Error("a rule the config does not name has no level")
	}
}

func TestMatchGlob(t *testing.T) {
	tests := []struct {
		pattern, name string
		want          bool
	}{
		{"data/legacy/**", "data/legacy/a.jsonl", true},
		{"data/legacy/**", "data/legacy", true},
		{"data/legacy/**", "data/legacyx/a.jsonl", false},
		{"**/*.json", "a/b/c.json", true},
		{"**/*.json", "c.json", true},
		{"*.json", "a/c.json", false},
		{"data/*/x.jsonl", "data/a/x.jsonl", true},
		{"data/*/x.jsonl", "data/a/b/x.jsonl", false},
		{"a/**/b/**/c", "a/x/b/y/z/c", true},
	}
	for _, tt := range tests {
		if got := matchGlob(tt.pattern, tt.name); got != tt.want {
			t.Errorf("matchGlob(%q, %q) = %v", tt.pattern, tt.name, got)
		}
	}
}

// TestFind: the lookup climbs to the repository root (a folder holding
// .git) and no further; outside a repository only the folder itself counts.
func TestFind(t *testing.T) {
	root := t.TempDir()
	repo := filepath.Join(root, "repo")
	sub := filepath.Join(repo, "a", "b")
	os.MkdirAll(sub, 0o755)
	os.MkdirAll(filepath.Join(repo, ".git"), 0o755)
	planted := filepath.Join(root, ".chatlint.yaml") // above the repository
	os.WriteFile(planted, nil, 0o644)
	inRepo := filepath.Join(repo, "a", ".chatlint.yaml")
	loose := filepath.Join(root, "loose", "data")
	os.MkdirAll(loose, 0o755)

	if p, err := Find(sub); err != nil || p != "" {
		t.Errorf("Find read the config above the repository: %q, %v", p, err)
	}
	if p, err := Find(loose); err != nil || p != "" {
		t.Errorf("outside a repository Find climbed to %q, %v", p, err)
	}
	os.WriteFile(inRepo, nil, 0o644)
	if p, err := Find(sub); err != nil || p != inRepo {
		t.Errorf("Find = %q, %v; want %q", p, err, inRepo)
	}
	os.WriteFile(filepath.Join(loose, ".chatlint.yaml"), nil, 0o644)
	if p, err := Find(loose); err != nil || p != filepath.Join(loose, ".chatlint.yaml") {
		t.Errorf("Find = %q, %v; want the folder's own config", p, err)
	}
}

func TestErrorType(t *testing.T) {
	_, err := Parse("c.yaml", []byte("nope: 1\n"))
	var e *Error
	if !errors.As(err, &e) || e.Line != 1 || e.File != "c.yaml" {
		t.Errorf("%#v", err)
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"packs: [a]\n", "rules: {a: off}\n", "overrides:\n  - files: [x]\n    rules: {a: b}\n", "suppressions: [{rule: a}]\n", "- [\n", "&a [*a]\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		c, err := Parse("c.yaml", src)
		if err == nil {
			c.CheckRules(func(string) bool { return false })
			c.LevelFor("a", "/x/y")
		}
	})
}

// TestKeys keeps the exported key list the same as the keys the parser takes.
func TestKeys(t *testing.T) {
	_, err := Parse("c.yaml", []byte("zzz: 1\n"))
	want := "c.yaml:1: unknown key \"zzz\" in the config (valid keys: " + strings.Join(Keys, ", ") + ")"
	if diff := cmp.Diff(want, errString(err)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestNullValues(t *testing.T) {
	c, err := Parse("c.yaml", []byte("rules:\noverrides:\npacks:\n"))
	if err != nil || c.Packs != nil || len(c.Rules) != 0 {
		t.Errorf("%+v, %v", c, err)
	}
}
