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
	Errors   int          `xml:"errors,attr"`
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
	Error     *junitFailure `xml:"error,omitempty"`
	Skipped   *junitSkipped `xml:"skipped,omitempty"`
	SystemOut string        `xml:"system-out,omitempty"`
}

type junitSkipped struct {
	Message string `xml:"message,attr"`
}

type junitFailure struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Text    string `xml:",chardata"`
}

// Close writes one suite per file. A file no rule ran on (unreadable, of no
// known format, skipped whole) lists only the rules that reported on it, and
// never a rule as passed: its unrecognized-format case fails (or is skipped
// when configured below the fail level), and an unreadable file is an
// error case.
func (j *junitWriter) Close(s finding.Summary) error {
	out := junitSuites{Name: "chatlint"}
	unchecked := uncheckedInputs(s)
	for _, f := range s.Inputs {
		if _, ok := unchecked[f.File]; ok {
			j.addFile(f.File)
		}
	}
	for _, file := range j.files {
		suite := junitSuite{Name: file}
		nc, isUnchecked := unchecked[file]
		marked := false
		for _, r := range j.rules.rules {
			if isUnchecked && len(j.byKey[[2]string{file, r.ID}]) == 0 && r.ID != nc.Rule {
				continue // never ran on this file: not a pass
			}
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
		out.Suites = append(out.Suites, suite)
	}
	for _, suite := range out.Suites {
		out.Errors += suite.Errors
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

// markUnchecked makes the case of a file no rule ran on show it: an error
// when the file could not be read; a skip when its finding stays below the
// fail level (the run passes, yet the file was not checked); a failing case
// keeps its failure.
func markUnchecked(c *junitCase, suite *junitSuite, nc notChecked) {
	switch {
	case nc.Read:
		c.Error = &junitFailure{Message: nc.Message, Type: "error", Text: nc.Message}
		suite.Errors++
	case c.Failure == nil:
		c.Skipped = &junitSkipped{Message: nc.Message}
	}
}
