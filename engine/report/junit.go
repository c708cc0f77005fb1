package report

import (
	"bufio"
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
//
// Memory does not grow with the findings: each finding is written to a
// spool as one line (rule, severity, its text) as it arrives, with the span
// of the spool each file's findings take; Close renders one suite at a time
// from its spans, and a case lists at most maxCaseLines findings of each
// kind (the count in its message stays complete).
type junitWriter struct {
	w     io.Writer
	opts  Options
	rules *ruleTable
	files []string
	spans map[string][]span // file -> where its findings lie in the spool
	found spool
	off   int64 // bytes spooled so far
}

// span is a run of consecutive spooled findings of one file.
type span struct{ from, to int64 }

// maxCaseLines caps the findings a test case lists in its failure text and
// its output: CI pages render them whole, and a million lines help no one.
const maxCaseLines = 1000

func newJUnitWriter(w io.Writer, o Options) Writer {
	j := &junitWriter{w: w, opts: o, rules: newRuleTable(o.Rules), spans: map[string][]span{}}
	for _, f := range o.Files {
		j.addFile(f)
	}
	return j
}

// addFile lists a file once; a map, not a scan of the list, since it is
// called for every finding and a run may have thousands of files.
func (j *junitWriter) addFile(name string) {
	if _, ok := j.spans[name]; !ok {
		j.spans[name] = nil
		j.files = append(j.files, name)
	}
}

func (j *junitWriter) Finding(f finding.Finding) error {
	j.rules.of(f)
	j.addFile(f.File)
	// Cleaned as in text output: CI pages show this text, and one record's
	// long or control-laden message must not flood them. Clean escapes
	// control characters, so the text holds no tab and no newline.
	text := fmt.Sprintf("%s:%d: %s %s: %s", escapeControls(f.File), f.Line, f.Severity, f.Rule, Clean(f.Message))
	rec := f.Rule + "\t" + f.Severity.String() + "\t" + text + "\n"
	sp := j.spans[f.File]
	if n := len(sp); n > 0 && sp[n-1].to == j.off {
		sp[n-1].to += int64(len(rec))
	} else {
		sp = append(sp, span{j.off, j.off + int64(len(rec))})
	}
	j.spans[f.File] = sp
	j.found.add([]byte(rec))
	j.off += int64(len(rec))
	return j.found.err
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
	XMLName  xml.Name    `xml:"testsuite"`
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

// ruleCase gathers one rule's findings in one file.
type ruleCase struct {
	n, listed, other, otherListed int
	worst                         finding.Severity
	failing, rest                 strings.Builder
}

// Close writes one suite per file, each rendered from the spool in turn
// into a second spool, then the totals and the suites. A file no rule ran
// on (unreadable, of no known format, skipped whole) lists only the rules
// that reported on it, and never a rule as passed: its unrecognized-format
// case fails (or is skipped when configured below the fail level), and an
// unreadable file is an error case.
func (j *junitWriter) Close(s finding.Summary) error {
	defer j.found.release()
	if j.found.err != nil {
		return j.found.err
	}
	unchecked := uncheckedInputs(s)
	for _, f := range s.Inputs {
		if _, ok := unchecked[f.File]; ok {
			j.addFile(f.File)
		}
	}
	src, err := j.found.reader()
	if err != nil {
		return err
	}
	var body spool
	defer body.release()
	total := junitSuites{Name: "chatlint"}
	for _, file := range j.files {
		suite, err := j.suite(src, file, unchecked)
		if err != nil {
			return err
		}
		total.Tests += suite.Tests
		total.Failures += suite.Failures
		total.Errors += suite.Errors
		var b strings.Builder
		enc := xml.NewEncoder(&b)
		enc.Indent("  ", "  ")
		if err := enc.Encode(suite); err != nil {
			return err
		}
		body.add([]byte("\n" + b.String()))
	}
	head := fmt.Sprintf(`%s<testsuites name="%s" tests="%d" failures="%d" errors="%d">`, xml.Header, total.Name, total.Tests, total.Failures, total.Errors)
	if body.n == 0 {
		_, err := io.WriteString(j.w, head+"</testsuites>\n")
		return err
	}
	if _, err := io.WriteString(j.w, head); err != nil {
		return err
	}
	if err := body.copyTo(j.w); err != nil {
		return err
	}
	_, err = io.WriteString(j.w, "\n</testsuites>\n")
	return err
}

// suite renders one file's suite from its spooled findings.
func (j *junitWriter) suite(src io.ReaderAt, file string, unchecked map[string]notChecked) (junitSuite, error) {
	cases := map[string]*ruleCase{}
	for _, sp := range j.spans[file] {
		sc := bufio.NewScanner(io.NewSectionReader(src, sp.from, sp.to-sp.from))
		sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
		for sc.Scan() {
			rule, rest, _ := strings.Cut(sc.Text(), "\t")
			sevName, text, _ := strings.Cut(rest, "\t")
			sev, _ := finding.ParseSeverity(sevName)
			c := cases[rule]
			if c == nil {
				c = &ruleCase{}
				cases[rule] = c
			}
			if sev >= j.opts.FailOn {
				c.n++
				c.worst = max(c.worst, sev)
				if c.listed < maxCaseLines {
					c.listed++
					c.failing.WriteString(text + "\n")
				}
			} else {
				c.other++
				if c.otherListed < maxCaseLines {
					c.otherListed++
					c.rest.WriteString(text + "\n")
				}
			}
		}
		if err := sc.Err(); err != nil {
			return junitSuite{}, err
		}
	}
	suite := junitSuite{Name: file}
	nc, isUnchecked := unchecked[file]
	marked := false
	for _, r := range j.rules.rules {
		rc := cases[r.ID]
		if isUnchecked && rc == nil && r.ID != nc.Rule {
			continue // never ran on this file: not a pass
		}
		c := junitCase{Name: r.ID, Classname: file, File: file}
		if rc != nil {
			if rc.n > 0 {
				text := rc.failing.String()
				if rc.n > rc.listed {
					text += fmt.Sprintf("… and %d more (a case lists the first %d)\n", rc.n-rc.listed, maxCaseLines)
				}
				c.Failure = &junitFailure{Message: fmt.Sprintf("%d %s finding(s) of %s", rc.n, rc.worst, r.ID), Type: rc.worst.String(), Text: text}
				suite.Failures++
			}
			c.SystemOut = rc.rest.String()
			if rc.other > rc.otherListed {
				c.SystemOut += fmt.Sprintf("… and %d more (a case lists the first %d)\n", rc.other-rc.otherListed, maxCaseLines)
			}
		}
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
	return suite, nil
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
