package report

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/chatlint/chatlint/engine/finding"
	"github.com/chatlint/chatlint/engine/rule"
)

func rules() []rule.Rule {
	return []rule.Rule{
		{ID: "trailing-short-entry", Severity: finding.Warning, Pack: "integrity", Description: "Last entry is short.\nMore text.", Source: "builtin:policies/integrity/session.rego:10"},
		{ID: "tool-result-missing", Severity: finding.Error, Pack: "integrity", Description: "A call has no result.", Fix: "Add the result.", Source: "builtin:policies/integrity/blocks.rego:3"},
		{ID: "unused-rule", Severity: finding.Info, Pack: "team", Description: "Never fires."},
	}
}

func writeWith(t *testing.T, format string, o Options, fs []finding.Finding, s finding.Summary) string {
	t.Helper()
	var b strings.Builder
	w, err := NewWith(format, &b, o)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range fs {
		if err := w.Finding(f); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(s); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestSARIFSchema validates the output against the official SARIF 2.1.0
// schema (fixtures/sarif, taken from the go-sarif module, which embeds it).
func TestSARIFSchema(t *testing.T) {
	schema, err := os.ReadFile("../../fixtures/sarif/sarif-schema-2.1.0.json")
	if err != nil {
		t.Fatal(err)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(schema))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("sarif-schema-2.1.0.json", doc); err != nil {
		t.Fatal(err)
	}
	sarifSchema, err := c.Compile("sarif-schema-2.1.0.json")
	if err != nil {
		t.Fatal(err)
	}
	fs := findings()
	fs = append(fs, finding.Finding{Rule: "jsonl-syntax", Severity: finding.Error, Message: "bad", File: "<stdin>", Line: 4, Pack: "core"},
		finding.Finding{Rule: "tool-result-missing", Severity: finding.Error, Message: "x", File: "/abs/dir with space/c.jsonl", Line: 1, Pack: "integrity"})
	for _, tt := range []struct {
		name string
		fs   []finding.Finding
	}{{"findings", fs}, {"clean", nil}} {
		t.Run(tt.name, func(t *testing.T) {
			out := writeWith(t, "sarif", Options{Rules: rules(), Version: "v1.2.3"}, tt.fs, finding.Summary{})
			inst, err := jsonschema.UnmarshalJSON(strings.NewReader(out))
			if err != nil {
				t.Fatal(err)
			}
			if err := sarifSchema.Validate(inst); err != nil {
				t.Errorf("schema: %v", err)
			}
		})
	}
}

func TestSARIFContent(t *testing.T) {
	out := writeWith(t, "sarif", Options{Rules: rules(), Version: "v1.2.3"}, findings(), finding.Summary{})
	var log struct {
		Version string `json:"version"`
		Runs    []struct {
			Tool struct {
				Driver struct {
					Name    string `json:"name"`
					Version string `json:"version"`
					Rules   []struct {
						ID                   string `json:"id"`
						DefaultConfiguration struct {
							Level string `json:"level"`
						} `json:"defaultConfiguration"`
						Properties map[string]any `json:"properties"`
					} `json:"rules"`
				} `json:"driver"`
			} `json:"tool"`
			Results []struct {
				RuleID    string `json:"ruleId"`
				RuleIndex int    `json:"ruleIndex"`
				Level     string `json:"level"`
				Locations []struct {
					PhysicalLocation struct {
						ArtifactLocation struct {
							URI string `json:"uri"`
						} `json:"artifactLocation"`
						Region struct {
							StartLine int `json:"startLine"`
						} `json:"region"`
					} `json:"physicalLocation"`
					LogicalLocations []struct {
						FullyQualifiedName string `json:"fullyQualifiedName"`
					} `json:"logicalLocations"`
				} `json:"locations"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal([]byte(out), &log); err != nil {
		t.Fatal(err)
	}
	run := log.Runs[0]
	var ids []string
	for _, r := range run.Tool.Driver.Rules {
		ids = append(ids, r.ID+"="+r.DefaultConfiguration.Level)
	}
	if diff := cmp.Diff([]string{"tool-result-missing=error", "trailing-short-entry=warning", "unused-rule=note"}, ids); diff != "" {
		t.Errorf("rules (-want +got):\n%s", diff)
	}
	if run.Tool.Driver.Version != "v1.2.3" || log.Version != "2.1.0" {
		t.Errorf("versions: %q %q", run.Tool.Driver.Version, log.Version)
	}
	var got []string
	for _, r := range run.Results {
		loc := r.Locations[0]
		ptr := ""
		if len(loc.LogicalLocations) > 0 {
			ptr = loc.LogicalLocations[0].FullyQualifiedName
		}
		got = append(got, fmt.Sprintf("%s#%d %s %s:%d %s", r.RuleID, r.RuleIndex, r.Level, loc.PhysicalLocation.ArtifactLocation.URI, loc.PhysicalLocation.Region.StartLine, ptr))
	}
	want := []string{"tool-result-missing#0 error a.jsonl:3 /messages/2", "trailing-short-entry#1 warning b.jsonl:9 "}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("results (-want +got):\n%s", diff)
	}
}

func TestJUnit(t *testing.T) {
	fs := findings()
	out := writeWith(t, "junit", Options{Rules: rules()[:2], Files: []string{"a.jsonl", "b.jsonl", "clean.jsonl"}, FailOn: finding.Error}, fs, finding.Summary{})
	var got junitSuites
	if err := xml.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if got.Tests != 6 || got.Failures != 1 {
		t.Errorf("tests=%d failures=%d, want 6 and 1 (3 files x 2 rules; the warning is below the fail level)", got.Tests, got.Failures)
	}
	var summary []string
	for _, s := range got.Suites {
		for _, c := range s.Cases {
			state := "pass"
			if c.Failure != nil {
				state = "FAIL " + c.Failure.Type
			}
			if c.SystemOut != "" {
				state += " (output)"
			}
			summary = append(summary, s.Name+" "+c.Name+" "+state)
		}
	}
	want := []string{
		"a.jsonl tool-result-missing FAIL error", "a.jsonl trailing-short-entry pass",
		"b.jsonl tool-result-missing pass", "b.jsonl trailing-short-entry pass (output)",
		"clean.jsonl tool-result-missing pass", "clean.jsonl trailing-short-entry pass",
	}
	if diff := cmp.Diff(want, summary); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// TestJUnitCleansMessages checks that a finding's text in JUnit is what text
// output prints: control characters escaped, a long message capped.
func TestJUnitCleansMessages(t *testing.T) {
	long := strings.Repeat("x", 5*maxMessage)
	fs := []finding.Finding{{Rule: "r", Severity: finding.Error, Message: "a\x1b[2Jb " + long, File: "f.jsonl", Line: 1}}
	out := writeWith(t, "junit", Options{Rules: []rule.Rule{{ID: "r", Severity: finding.Error}}, Files: []string{"f.jsonl"}, FailOn: finding.Error}, fs, finding.Summary{})
	var got junitSuites
	if err := xml.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	text := got.Suites[0].Cases[0].Failure.Text
	if want := "f.jsonl:1: error r: " + Clean(fs[0].Message) + "\n"; text != want {
		t.Errorf("failure text %q..., want %q...", text[:min(60, len(text))], want[:60])
	}
	if strings.Contains(text, "\x1b") || len(text) > 3*maxMessage {
		t.Errorf("text not cleaned: %d bytes", len(text))
	}
}

func TestJSONL(t *testing.T) {
	out := writeWith(t, "jsonl", Options{}, findings(), finding.Summary{Errors: 1})
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != 2 {
		t.Fatalf("want one line per finding, got:\n%s", out)
	}
	for i, l := range lines {
		var f finding.Finding
		if err := json.Unmarshal([]byte(l), &f); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(findings()[i], f); diff != "" {
			t.Errorf("line %d (-want +got):\n%s", i+1, diff)
		}
	}
}

// TestJSONLStreams checks that each finding reaches the output before the
// next one is given, not at Close.
func TestJSONLStreams(t *testing.T) {
	var b strings.Builder
	w, _ := New("jsonl", &b)
	w.Finding(findings()[0])
	if !strings.Contains(b.String(), "tool-result-missing") {
		t.Error("the first finding was not written when it came")
	}
}

func TestGitHubCap(t *testing.T) {
	var fs []finding.Finding
	for i := range 5 {
		fs = append(fs, finding.Finding{Rule: "r", Severity: finding.Warning, Message: "m", File: "f.jsonl", Line: i + 1})
	}
	got := writeWith(t, "github", Options{MaxAnnotations: 3}, fs, finding.Summary{Files: 1, Records: 5, Warnings: 5})
	want := "::warning file=f.jsonl,line=1,title=r::m\n::warning file=f.jsonl,line=2,title=r::m\n::warning file=f.jsonl,line=3,title=r::m\n" +
		"::notice title=chatlint::2 more findings are not shown as annotations (the first 3 are); write them all with -o json=FILE or -o sarif=FILE\n" +
		"0 errors, 5 warnings, 0 infos (1 file, 5 records)\n"
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}
