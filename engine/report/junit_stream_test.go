package report

import (
	"encoding/xml"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/chatlint/chatlint/engine/finding"
	"github.com/chatlint/chatlint/engine/spill"
)

// referenceJUnit is the JUnit report as it was written before it streamed:
// every finding kept per file and rule, the whole tree through one encoder.
func referenceJUnit(t *testing.T, o Options, fs []finding.Finding, s finding.Summary) string {
	rules := newRuleTable(o.Rules)
	var files []string
	seen := map[string]bool{}
	add := func(f string) {
		if !seen[f] {
			seen[f] = true
			files = append(files, f)
		}
	}
	for _, f := range o.Files {
		add(f)
	}
	byKey := map[[2]string][]finding.Finding{}
	for _, f := range fs {
		rules.of(f)
		add(f.File)
		byKey[[2]string{f.File, f.Rule}] = append(byKey[[2]string{f.File, f.Rule}], f)
	}
	out := junitSuites{Name: "chatlint"}
	unchecked := uncheckedInputs(s)
	for _, in := range s.Inputs {
		if _, ok := unchecked[in.File]; ok {
			add(in.File)
		}
	}
	for _, file := range files {
		suite := junitSuite{Name: file}
		nc, isUnchecked := unchecked[file]
		marked := false
		for _, r := range rules.rules {
			if isUnchecked && len(byKey[[2]string{file, r.ID}]) == 0 && r.ID != nc.Rule {
				continue
			}
			c := junitCase{Name: r.ID, Classname: file, File: file}
			var failing, other strings.Builder
			n, worst := 0, finding.Severity(0)
			for _, f := range byKey[[2]string{file, r.ID}] {
				line := fmt.Sprintf("%s:%d: %s %s: %s\n", escapeControls(f.File), f.Line, f.Severity, f.Rule, Clean(f.Message))
				if f.Severity >= o.FailOn {
					n++
					worst = max(worst, f.Severity)
					failing.WriteString(line)
				} else {
					other.WriteString(line)
				}
			}
			if n > 0 {
				c.Failure = &junitFailure{Message: fmt.Sprintf("%d %s finding(s) of %s", n, worst, r.ID), Type: worst.String(), Text: failing.String()}
				suite.Failures++
			}
			c.SystemOut = other.String()
			if isUnchecked && r.ID == nc.Rule {
				marked = true
				markUnchecked(&c, &suite, nc)
			}
			suite.Cases = append(suite.Cases, c)
		}
		if isUnchecked && !marked {
			c := junitCase{Name: nc.Rule, Classname: file, File: file}
			markUnchecked(&c, &suite, nc)
			suite.Cases = append(suite.Cases, c)
		}
		suite.Tests = len(suite.Cases)
		out.Tests += suite.Tests
		out.Failures += suite.Failures
		out.Errors += suite.Errors
		out.Suites = append(out.Suites, suite)
	}
	var b strings.Builder
	b.WriteString(xml.Header)
	enc := xml.NewEncoder(&b)
	enc.Indent("", "  ")
	if err := enc.Encode(out); err != nil {
		t.Fatal(err)
	}
	return b.String() + "\n"
}

// TestJUnitStreamedUnchanged: the streamed JUnit report is the bytes the
// buffered writer produced: files with and without findings, findings of
// files interleaved, an unreadable and an unrecognized input, in memory and
// spilled to disk.
func TestJUnitStreamedUnchanged(t *testing.T) {
	defer func(n int) { spill.Memory = n }(spill.Memory)
	sum := finding.Summary{Inputs: []finding.Input{
		{File: "gone.jsonl", Error: "open gone.jsonl: no such file or directory"},
		{File: "f1.jsonl", Format: "chat", Records: 3},
	}}
	unknown := finding.Finding{Rule: "unrecognized-format", Severity: finding.Error, File: "odd.jsonl", Line: 1, Message: "unrecognized format"}
	sum.Inputs = append(sum.Inputs, finding.Input{File: "odd.jsonl"})
	for _, mem := range []int{4 << 20, 100} {
		spill.Memory = mem
		for _, n := range []int{0, 1, 7, 60} {
			for _, failOn := range []finding.Severity{finding.Error, finding.Warning} {
				o := Options{Rules: rules(), Files: []string{"f0.jsonl", "f1.jsonl", "f2.jsonl", "quiet.jsonl"}, FailOn: failOn}
				fs := append(streamFindings(n, 10), unknown)
				t.Run(fmt.Sprintf("mem=%d/n=%d/failOn=%s", mem, n, failOn), func(t *testing.T) {
					if d := cmp.Diff(referenceJUnit(t, o, fs, sum), writeWith(t, "junit", o, fs, sum)); d != "" {
						t.Errorf("junit (-old +new):\n%s", d)
					}
				})
			}
		}
	}
}

// A case lists its first maxCaseLines findings and counts the rest, so a
// rule firing on every record of a large file does not write them all.
func TestJUnitCaseCapped(t *testing.T) {
	var fs []finding.Finding
	for i := range maxCaseLines + 5 {
		fs = append(fs, finding.Finding{Rule: "r", Severity: finding.Error, File: "f.jsonl", Line: i + 1, Message: "m"})
	}
	out := writeWith(t, "junit", Options{Files: []string{"f.jsonl"}, FailOn: finding.Error}, fs, finding.Summary{})
	var got junitSuites
	if err := xml.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	c := got.Suites[0].Cases[0].Failure
	if c == nil || c.Message != fmt.Sprintf("%d error finding(s) of r", maxCaseLines+5) {
		t.Fatalf("failure %+v", c)
	}
	if lines := strings.Count(c.Text, "\n"); lines != maxCaseLines+1 || !strings.HasSuffix(c.Text, "… and 5 more (a case lists the first 1000)\n") {
		t.Errorf("%d lines, ending %q", lines, c.Text[len(c.Text)-60:])
	}
}
