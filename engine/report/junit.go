package report

import (
	"encoding/xml"
	"fmt"
	"io"
	"strings"

	"github.com/chatlint/chatlint/engine/finding"
)

// junitWriter writes a JUnit XML report, the format every CI system shows
// as tests: one test suite per file and one test case per rule in it. A
// case fails when the rule found something at or above the fail level;
// findings below it are listed in the case's output and it passes.
type junitWriter struct {
	w     io.Writer
	opts  Options
	rules *ruleTable
	files []string
	seen  map[string]bool                 // files already listed
	byKey map[[2]string][]finding.Finding // file, rule
}

func newJUnitWriter(w io.Writer, o Options) Writer {
	j := &junitWriter{w: w, opts: o, rules: newRuleTable(o.Rules), seen: map[string]bool{}, byKey: map[[2]string][]finding.Finding{}}
	for _, f := range o.Files {
		j.addFile(f)
	}
	return j
}

// addFile lists a file once; a set, not a scan of the list, since it is
// called for every finding and a run may have thousands of files.
func (j *junitWriter) addFile(name string) {
	if !j.seen[name] {
		j.seen[name] = true
		j.files = append(j.files, name)
	}
}

func (j *junitWriter) Finding(f finding.Finding) error {
	j.rules.of(f)
	j.addFile(f.File)
	k := [2]string{f.File, f.Rule}
	j.byKey[k] = append(j.byKey[k], f)
	return nil
}

type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name     string      `xml:"name,attr"`
	Tests    int         `xml:"tests,attr"`
	Failures int         `xml:"failures,attr"`
	Errors   int         `xml:"errors,attr"`
	Cases    []junitCase `xml:"testcase"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	File      string        `xml:"file,attr"`
	Failure   *junitFailure `xml:"failure,omitempty"`
	SystemOut string        `xml:"system-out,omitempty"`
}

type junitFailure struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Text    string `xml:",chardata"`
}

func (j *junitWriter) Close(finding.Summary) error {
	out := junitSuites{Name: "chatlint"}
	for _, file := range j.files {
		suite := junitSuite{Name: file}
		for _, r := range j.rules.rules {
			c := junitCase{Name: r.ID, Classname: file, File: file}
			var failing, other strings.Builder
			n, worst := 0, finding.Severity(0)
			for _, f := range j.byKey[[2]string{file, r.ID}] {
				// Cleaned as in text output: CI pages show this text, and one
				// record's long or control-laden message must not flood them.
				line := fmt.Sprintf("%s:%d: %s %s: %s\n", escapeControls(f.File), f.Line, f.Severity, f.Rule, Clean(f.Message))
				if f.Severity >= j.opts.FailOn {
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
			suite.Cases = append(suite.Cases, c)
		}
		suite.Tests = len(suite.Cases)
		out.Tests += suite.Tests
		out.Failures += suite.Failures
		out.Suites = append(out.Suites, suite)
	}
	if _, err := io.WriteString(j.w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(j.w)
	enc.Indent("", "  ")
	if err := enc.Encode(out); err != nil {
		return err
	}
	_, err := io.WriteString(j.w, "\n")
	return err
}
