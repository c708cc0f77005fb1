package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/chatlint/chatlint/engine/tokens"
)

// findingLines reduces check's text output to "line severity rule".
func findingLines(out string) []string {
	re := regexp.MustCompile(`^[^:]+:(\d+): (\w+) ([a-z0-9-]+):`)
	var got []string
	for _, l := range strings.Split(out, "\n") {
		if m := re.FindStringSubmatch(l); m != nil {
			got = append(got, m[1]+" "+m[2]+" "+m[3])
		}
	}
	slices.Sort(got)
	return got
}

// The probe of issue 23: a role "narrator", a call to a tool the record
// does not declare with arguments "{not json", weight 7, and two identical
// records without an assistant message. Each defect gives one finding and
// nothing else does (the file's three examples are below OpenAI's minimum
// of 10, a defect of the file, reported once).
func TestFineTuningProbe(t *testing.T) {
	probe := filepath.Join("..", "..", "fixtures", "finetune", "probe.jsonl")
	for _, tt := range []struct {
		profile string
		want    []string
	}{
		{"default", []string{
			"1 error role-unknown",
			"1 error tool-arguments-invalid-json",
			"1 warning tool-call-undeclared",
		}},
		{"openai", []string{
			"1 error openai-weight",
			"1 error role-unknown",
			"1 error tool-arguments-invalid-json",
			"1 warning tool-call-undeclared",
			"1 error dataset-too-few-examples",
			"1 info dataset-token-cost", // the file's cost, not a defect
			"2 error openai-assistant-missing",
			"3 error openai-assistant-missing",
			"3 warning dataset-duplicate",
		}},
	} {
		t.Run(tt.profile, func(t *testing.T) {
			out, errOut, code := chatlint(t, "", "check", "--profile", tt.profile, probe)
			if code != 1 {
				t.Fatalf("exit %d, want 1\n%s%s", code, out, errOut)
			}
			want := slices.Clone(tt.want)
			slices.Sort(want)
			if d := cmp.Diff(want, findingLines(out)); d != "" {
				t.Errorf("findings (-want +got):\n%s\n%s", d, out)
			}
		})
	}
}

// The public OpenAI cookbook files pass the openai profile, record by
// record: the only error is the five-example toy file's count, under the
// minimum of 10 OpenAI documents (a job on it is refused).
func TestOpenAICanonicalData(t *testing.T) {
	dir := filepath.Join("..", "..", "..", "shared", "data", "openai-finetune")
	files, _ := filepath.Glob(filepath.Join(dir, "*.jsonl"))
	if len(files) == 0 {
		t.Skip("no shared data")
	}
	out, errOut, code := chatlint(t, "", append([]string{"check", "--profile", "openai"}, files...)...)
	var errs []string
	for _, l := range strings.Split(out, "\n") {
		if strings.Contains(l, ": error ") {
			errs = append(errs, l)
		}
	}
	want := []string{filepath.Join(dir, "cookbook-toy-chat-fine-tuning.jsonl") + ":1: error dataset-too-few-examples: the file has 5 examples; openai fine-tuning needs at least 10"}
	if diff := cmp.Diff(want, errs); diff != "" || code != 1 {
		t.Fatalf("exit %d, errors (-want +got):\n%s\n%s%s", code, diff, out, errOut)
	}
}

// Tokens are counted only when a rule asks: the default profile never
// tokenizes, the openai profile (example-too-long) counts every example.
func TestTokensOnlyWhenAsked(t *testing.T) {
	data := filepath.Join("..", "..", "fixtures", "finetune", "probe.jsonl")
	before := tokens.Examples()
	if _, errOut, code := chatlint(t, "", "check", "--workers", "2", data); code != 1 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if n := tokens.Examples() - before; n != 0 {
		t.Errorf("the default profile counted the tokens of %d examples, want none", n)
	}
	before = tokens.Examples()
	if _, errOut, code := chatlint(t, "", "check", "--profile", "openai", data); code != 1 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	// each of the 3 examples once: the dataset fold's token summary
	// (dataset-token-cost) counts it, and example-too-long takes that count
	if n := tokens.Examples() - before; n != 3 {
		t.Errorf("the openai profile counted %d examples, want 3", n)
	}
}

// rules --profile lists what runs under a profile: the openai rules only
// under openai; every listed rule is explained.
func TestRulesProfile(t *testing.T) {
	openai, _, code := chatlint(t, "", "rules", "--profile", "openai")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	def, _, _ := chatlint(t, "", "rules", "--profile", "default")
	for _, id := range []string{"openai-weight", "openai-message-keys", "dataset-duplicate", "example-too-long", "tool-arguments-not-string"} {
		if !strings.Contains(openai, id+" ") {
			t.Errorf("rules --profile openai lacks %s", id)
		}
		if strings.Contains(def, id+" ") {
			t.Errorf("rules --profile default lists %s", id)
		}
		if out, _, code := chatlint(t, "", "rules", "explain", id); code != 0 || !strings.Contains(out, "profiles: openai") {
			t.Errorf("rules explain %s: exit %d\n%s", id, code, out)
		}
	}
	if !strings.Contains(def, "tool-arguments-schema ") {
		t.Error("rules --profile default lacks tool-arguments-schema")
	}
	if _, errOut, code := chatlint(t, "", "rules", "--profile", "nope"); code != 2 || !strings.Contains(errOut, "unknown profile") {
		t.Errorf("unknown profile: exit %d, %s", code, errOut)
	}
}

// stats prints a table, and JSON whose totals add up its files.
func TestStatsCommand(t *testing.T) {
	data := filepath.Join("..", "..", "fixtures", "finetune", "stats.jsonl")
	out, errOut, code := chatlint(t, "", "stats", "--model", "gpt-3.5-turbo-0125", "--epochs", "2", data)
	if code != 0 || !strings.Contains(out, "model gpt-3.5-turbo-0125 (cl100k_base): at most 16,385 tokens per example") || !strings.Contains(out, "messages: assistant 4, user 4, system 1") {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
	probe := filepath.Join("..", "..", "fixtures", "finetune", "probe.jsonl")
	out, _, code = chatlint(t, "", "stats", "-o", "json", data, probe)
	var res struct {
		Model string `json:"model"`
		Files []struct {
			Records int `json:"records"`
			Tokens  struct {
				Total int `json:"total"`
			} `json:"tokens"`
			Epochs int     `json:"epochs"`
			Billed int     `json:"billed_tokens"`
			Cost   float64 `json:"cost_usd"`
		} `json:"files"`
		Total struct {
			Records int `json:"records"`
			Tokens  struct {
				Total int `json:"total"`
			} `json:"tokens"`
			Billed int `json:"billed_tokens"`
		} `json:"total"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil || code != 0 {
		t.Fatalf("exit %d, %v\n%s", code, err, out)
	}
	if res.Model != "gpt-4o-mini-2024-07-18" || len(res.Files) != 2 || res.Total.Records != 6 ||
		res.Total.Tokens.Total != res.Files[0].Tokens.Total+res.Files[1].Tokens.Total ||
		res.Total.Billed != res.Files[0].Billed+res.Files[1].Billed || res.Files[0].Epochs != 25 {
		t.Errorf("%+v", res)
	}
	if _, errOut, code := chatlint(t, "", "stats", "--model", "gpt-9", data); code != 2 || !strings.Contains(errOut, `unknown model "gpt-9"`) {
		t.Errorf("unknown model: exit %d, %s", code, errOut)
	}
}

// A team pack's dataset rules, in Rego and YAML, run under the default
// profile over each file's dataset document.
func TestTeamDatasetRules(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	write("pack.yaml", "name: team\n")
	write("dataset.rego", `package chatlint.team

# METADATA
# title: too-small
# description: A file has fewer than 3 records.
# custom:
#   id: too-small
#   severity: error
dataset_deny contains f if {
	input.records < 3
	f := {"rule": "too-small", "msg": sprintf("%d records", [input.records])}
}
`)
	write("dataset.yaml", `rules:
  - id: no-copies
    severity: warning
    description: A record repeats an earlier one.
    scope: dataset
    given: duplicates[*]
    assert:
      first_line: {equals: 0}
    message: 'copy of line {{first_line}}'
`)
	data := write("d.jsonl", `{"messages": [{"role": "user", "content": "a"}, {"role": "assistant", "content": "b"}]}
{"messages": [{"role": "user", "content": "a"}, {"role": "assistant", "content": "b"}], "id": "x"}
`)
	out, errOut, code := chatlint(t, "", "check", "--no-builtin", "--pack", dir, data)
	if code != 1 {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
	if d := cmp.Diff([]string{"1 error too-small", "2 warning no-copies"}, findingLines(out)); d != "" {
		t.Errorf("(-want +got):\n%s\n%s", d, out)
	}
	if !strings.Contains(out, "no-copies: copy of line 1") {
		t.Errorf("message:\n%s", out)
	}
}

// Every profile evaluates every shared sample file (every format) without
// a policy error: a rule that fails on real data stops a CI job.
func TestProfilesOnSharedData(t *testing.T) {
	dir := filepath.Join("..", "..", "..", "shared", "data")
	if _, err := os.Stat(dir); err != nil {
		t.Skip("no shared data")
	}
	for _, p := range []string{"default", "openai", "mistral", "together", "bedrock"} {
		out, errOut, code := chatlint(t, "", "check", "--profile", p, dir)
		if code == 2 || strings.Contains(out, "policy-error") {
			t.Errorf("--profile %s: exit %d\n%s\n%s", p, code, grepLines(out, "policy-error"), errOut)
		}
	}
}

func grepLines(s, sub string) string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if strings.Contains(l, sub) {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

// stats -o html=FILE writes the report page with the statistics section and
// no findings sections; its histogram holds every example once.
func TestStatsHTMLPage(t *testing.T) {
	data := filepath.Join("..", "..", "fixtures", "finetune", "stats.jsonl")
	page := filepath.Join(t.TempDir(), "stats.html")
	out, errOut, code := chatlint(t, "", "stats", "-o", "json", "-o", "html="+page, data)
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, errOut)
	}
	var res struct {
		Total struct {
			Records int `json:"records"`
		} `json:"total"`
		Histogram []struct{ Lo, Hi, Count int } `json:"histogram"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, b := range res.Histogram {
		n += b.Count
	}
	if n != res.Total.Records || n == 0 {
		t.Errorf("histogram holds %d examples, the total %d", n, res.Total.Records)
	}
	html := mustRead(t, page)
	for _, want := range []string{`id="stats"`, `<section id="findings" hidden>`, `<section id="per-rule" hidden>`, fmt.Sprintf(`id="count-examples">%d<`, res.Total.Records)} {
		if !strings.Contains(html, want) {
			t.Errorf("the page lacks %s", want)
		}
	}
	if strings.Contains(html, `id="verdict"`) {
		t.Error("a stats page shows a pass/fail verdict")
	}
	if _, errOut, code := chatlint(t, "", "stats", "-o", "sarif", data); code != 2 || !strings.Contains(errOut, "text or json") {
		t.Errorf("-o sarif: exit %d, %s", code, errOut)
	}
}
