package report

import (
	"encoding/json"
	"encoding/xml"
	"os"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/xeipuuv/gojsonschema"

	"github.com/chatlint/chatlint/engine/finding"
	"github.com/chatlint/chatlint/engine/rule"
)

// uncheckedRun is a run over four inputs: a checked file, a file of no known
// format (with its unrecognized-format finding at sev), an unreadable one
// and an empty one.
func uncheckedRun(sev finding.Severity) ([]finding.Finding, finding.Summary) {
	fs := []finding.Finding{
		{Rule: "tool-result-missing", Severity: finding.Error, Message: "x", File: "a.jsonl", Line: 3, Pack: "integrity"},
		{Rule: "unrecognized-format", Severity: sev, Message: "unrecognized format: the first record has keys {foo}", File: "u.jsonl", Line: 1, Pack: "core"},
	}
	s := finding.Summary{Inputs: []finding.Input{
		{File: "a.jsonl", Format: "chat", Records: 2},
		{File: "e.jsonl", Warning: finding.EmptyWarning},
		{File: "r.jsonl", Error: "open r.jsonl: permission denied"},
		{File: "u.jsonl", Records: 1},
	}}
	return fs, s
}

func uncheckedRules() []rule.Rule {
	return append(rules()[:2], rule.Rule{ID: "unrecognized-format", Severity: finding.Error, Pack: "core"})
}

// TestJUnitUncheckedFiles: a file no rule ran on is not a suite of passing
// rules. Its unrecognized-format case fails (or is skipped when configured
// below the fail level); an unreadable file is an error case.
func TestJUnitUncheckedFiles(t *testing.T) {
	for _, tc := range []struct {
		name string
		sev  finding.Severity
		want []string
	}{
		{"finding at the fail level", finding.Error, []string{
			"a.jsonl tool-result-missing FAIL", "a.jsonl trailing-short-entry pass", "a.jsonl unrecognized-format pass",
			"e.jsonl tool-result-missing pass", "e.jsonl trailing-short-entry pass", "e.jsonl unrecognized-format pass",
			"r.jsonl input-error ERROR",
			"u.jsonl unrecognized-format FAIL",
		}},
		{"finding below the fail level", finding.Warning, []string{
			"a.jsonl tool-result-missing FAIL", "a.jsonl trailing-short-entry pass", "a.jsonl unrecognized-format pass",
			"e.jsonl tool-result-missing pass", "e.jsonl trailing-short-entry pass", "e.jsonl unrecognized-format pass",
			"r.jsonl input-error ERROR",
			"u.jsonl unrecognized-format SKIPPED",
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fs, s := uncheckedRun(tc.sev)
			out := writeWith(t, "junit", Options{Rules: uncheckedRules(), Files: []string{"a.jsonl", "e.jsonl", "r.jsonl", "u.jsonl"}, FailOn: finding.Error}, fs, s)
			var got junitSuites
			if err := xml.Unmarshal([]byte(out), &got); err != nil {
				t.Fatalf("%v\n%s", err, out)
			}
			var cases []string
			for _, s := range got.Suites {
				for _, c := range s.Cases {
					state := "pass"
					switch {
					case c.Failure != nil:
						state = "FAIL"
					case c.Error != nil:
						state = "ERROR"
					case c.Skipped != nil:
						state = "SKIPPED"
					}
					cases = append(cases, s.Name+" "+c.Name+" "+state)
				}
			}
			if diff := cmp.Diff(tc.want, cases); diff != "" {
				t.Errorf("cases (-want +got):\n%s\n%s", diff, out)
			}
			if got.Errors != 1 {
				t.Errorf("errors = %d, want 1 (the unreadable file)", got.Errors)
			}
		})
	}
}

// TestSARIFUncheckedFiles: every input no rule ran on is a tool execution
// notification of level error, whatever its finding's level, and an
// unreadable input makes the execution unsuccessful; the log stays valid.
func TestSARIFUncheckedFiles(t *testing.T) {
	fs, s := uncheckedRun(finding.Warning)
	out := writeWith(t, "sarif", Options{Rules: uncheckedRules()}, fs, s)
	var log struct {
		Runs []struct {
			Invocations []struct {
				ExecutionSuccessful bool `json:"executionSuccessful"`
				Notifications       []struct {
					Level      string `json:"level"`
					Descriptor struct {
						ID string `json:"id"`
					} `json:"descriptor"`
					Message struct {
						Text string `json:"text"`
					} `json:"message"`
					Locations []struct {
						PhysicalLocation struct {
							ArtifactLocation struct {
								URI string `json:"uri"`
							} `json:"artifactLocation"`
						} `json:"physicalLocation"`
					} `json:"locations"`
				} `json:"toolExecutionNotifications"`
			} `json:"invocations"`
		} `json:"runs"`
	}
	if err := json.Unmarshal([]byte(out), &log); err != nil {
		t.Fatal(err)
	}
	invs := log.Runs[0].Invocations
	if len(invs) != 1 || invs[0].ExecutionSuccessful {
		t.Fatalf("invocations = %+v, want one, not successful", invs)
	}
	var got []string
	for _, n := range invs[0].Notifications {
		got = append(got, n.Level+" "+n.Descriptor.ID+" "+n.Locations[0].PhysicalLocation.ArtifactLocation.URI+" "+n.Message.Text)
	}
	want := []string{
		"error input-error r.jsonl r.jsonl: not read: open r.jsonl: permission denied",
		"error unrecognized-format u.jsonl u.jsonl: unrecognized format: no rule checked this file",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("notifications (-want +got):\n%s", diff)
	}

	schema, err := os.ReadFile("../../fixtures/sarif/sarif-schema-2.1.0.json")
	if err != nil {
		t.Fatal(err)
	}
	res, err := gojsonschema.Validate(gojsonschema.NewBytesLoader(schema), gojsonschema.NewStringLoader(out))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range res.Errors() {
		t.Errorf("schema: %s", e)
	}
}
