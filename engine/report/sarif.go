package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"path/filepath"
	"strings"

	"github.com/owenrumney/go-sarif/v3/pkg/report/v210/sarif"

	"github.com/chatlint/chatlint/engine/finding"
)

// sarifWriter builds a SARIF 2.1.0 log (one run) for code-scanning tools:
// every active rule in tool.driver.rules, every finding a result with its
// file, line and JSON Pointer. The rule table comes before the results and
// grows with them, so results are encoded as they arrive and spooled
// (memory, then a temporary file) until Close writes the log around them.
type sarifWriter struct {
	w       io.Writer
	opts    Options
	rules   *ruleTable
	run     *sarif.Run
	results spool
}

func newSARIFWriter(w io.Writer, o Options) Writer {
	return &sarifWriter{w: w, opts: o, rules: newRuleTable(o.Rules), run: sarif.NewRunWithInformationURI("chatlint", "https://github.com/chatlint/chatlint")}
}

var sarifLevel = map[finding.Severity]string{finding.Error: "error", finding.Warning: "warning", finding.Info: "note"}

func (s *sarifWriter) Finding(f finding.Finding) error {
	res := s.result(f)
	// Indented as the library's PrettyWrite lays out the whole log: a result
	// sits four levels deep (runs, run, results).
	b, err := json.MarshalIndent(res, resultIndent, "  ")
	if err != nil {
		return err
	}
	sep := ",\n" + resultIndent
	if s.results.n == 0 {
		sep = "\n" + resultIndent
	}
	s.results.add(append([]byte(sep), b...))
	return s.results.err
}

// result is the SARIF result of one finding.
func (s *sarifWriter) result(f finding.Finding) *sarif.Result {
	idx := s.rules.of(f)
	loc := sarif.NewPhysicalLocation().
		WithArtifactLocation(sarif.NewSimpleArtifactLocation(artifactURI(f.File)))
	if f.Line > 0 {
		loc.WithRegion(sarif.NewRegion().WithStartLine(f.Line))
	}
	l := sarif.NewLocation().WithPhysicalLocation(loc)
	if f.Path != "" {
		// The JSON Pointer into the line's record: the logical place of the
		// finding inside the file's physical line.
		l.AddLogicalLocation(sarif.NewLogicalLocation().WithFullyQualifiedName(f.Path).WithKind("element"))
	}
	res := sarif.NewRuleResult(f.Rule).
		WithRuleIndex(idx).
		WithLevel(sarifLevel[f.Severity]).
		WithMessage(sarif.NewTextMessage(f.Message)).
		AddLocation(l).
		// The finding's key leaves the line out, so code-scanning tools
		// track the same finding across commits: a record without an id is
		// known by the hash of its content, as in a baseline.
		WithPartialFingerprints(map[string]string{"chatlintKey/v1": finding.Key(f, f.Identity())})
	props := sarif.NewPropertyBag()
	props.Add("pack", f.Pack)
	if f.Record != "" {
		props.Add("record", f.Record)
	}
	if f.MessageIndex != nil {
		props.Add("messageIndex", *f.MessageIndex)
	}
	res.WithProperties(props)
	return res
}

const resultIndent = "        "

// resultsSlot is how the log with no results shows its results array; Close
// writes the spooled results there.
var resultsSlot = []byte("\n      \"results\": []")

// Close adds the rules, and the run's invocation: a tool execution
// notification (level error) for every input no rule ran on — unreadable, of
// no known format, skipped whole — so such a file shows as a failure even
// where its finding is configured below error, and executionSuccessful is
// false when an input could not be read. The spooled results are written
// into the envelope's results array.
func (s *sarifWriter) Close(sum finding.Summary) error {
	defer s.results.release()
	s.addRules()
	s.addInvocation(sum)
	rep := sarif.NewReport()
	rep.AddRun(s.run)
	var envelope bytes.Buffer
	if err := rep.PrettyWrite(&envelope); err != nil {
		return err
	}
	env := envelope.Bytes()
	at := bytes.Index(env, resultsSlot)
	if at < 0 || bytes.Count(env, resultsSlot) != 1 {
		return fmt.Errorf("sarif: the log has no single place for results")
	}
	at += len(resultsSlot) - 1 // before the closing ']'
	if _, err := s.w.Write(env[:at]); err != nil {
		return err
	}
	if s.results.n > 0 {
		if err := s.results.copyTo(s.w); err != nil {
			return err
		}
		if _, err := io.WriteString(s.w, "\n      "); err != nil {
			return err
		}
	}
	if _, err := s.w.Write(env[at:]); err != nil {
		return err
	}
	_, err := io.WriteString(s.w, "\n")
	return err
}

// addInvocation adds the run's invocation: a tool execution notification
// for every input no rule ran on (see Close).
func (s *sarifWriter) addInvocation(sum finding.Summary) {
	inv := sarif.NewInvocation().WithExecutionSuccessful(true)
	for _, in := range sum.Inputs {
		nc, ok := uncheckedInput(in)
		if !ok {
			continue
		}
		if nc.Read {
			inv.WithExecutionSuccessful(false)
		}
		loc := sarif.NewLocation().WithPhysicalLocation(sarif.NewPhysicalLocation().
			WithArtifactLocation(sarif.NewSimpleArtifactLocation(artifactURI(in.File))))
		inv.AddToolExecutionNotification(sarif.NewNotification().
			WithLevel("error").
			WithMessage(sarif.NewTextMessage(Clean(in.File + ": " + nc.Message))).
			WithDescriptor(sarif.NewReportingDescriptorReference().WithID(nc.Rule)).
			AddLocation(loc))
	}
	s.run.AddInvocation(inv)
}

// addRules describes every rule seen, in tool.driver.
func (s *sarifWriter) addRules() {
	driver := s.run.Tool.Driver
	if s.opts.Version != "" {
		driver.WithVersion(s.opts.Version)
	}
	for _, r := range s.rules.rules {
		d := sarif.NewRule(r.ID)
		if r.Title != "" && r.Title != r.ID {
			d.WithName(r.Title)
		}
		if r.Description != "" {
			first, _, _ := strings.Cut(r.Description, "\n")
			d.WithShortDescription(sarif.NewMultiformatMessageString().WithText(first))
			d.WithFullDescription(sarif.NewMultiformatMessageString().WithText(r.Description))
		}
		if r.Fix != "" {
			d.WithHelp(sarif.NewMultiformatMessageString().WithText(r.Fix))
		}
		if lvl, ok := sarifLevel[r.Severity]; ok {
			d.WithDefaultConfiguration(sarif.NewReportingConfiguration().WithLevel(lvl))
		}
		props := sarif.NewPropertyBag()
		props.Add("pack", r.Pack)
		if r.Source != "" {
			props.Add("source", r.Source)
		}
		d.WithProperties(props)
		driver.AddRule(d)
	}
}

// artifactURI turns a file name into a URI reference: relative paths stay
// relative (code scanning resolves them against the checkout), absolute ones
// become file URIs, and anything odd (<stdin>) is percent-escaped.
func artifactURI(name string) string {
	p := filepath.ToSlash(name)
	if filepath.IsAbs(name) {
		return (&url.URL{Scheme: "file", Path: p}).String()
	}
	return (&url.URL{Path: p}).String()
}
