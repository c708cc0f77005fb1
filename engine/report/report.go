// Package report writes findings in each output format. Every format is one
// Writer; commands pick one by name.
package report

import (
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"

	"github.com/chatlint/chatlint/engine/finding"
	"github.com/chatlint/chatlint/engine/rule"
)

// Writer receives findings in order, then the summary.
type Writer interface {
	// Finding writes (or buffers) one finding.
	Finding(f finding.Finding) error
	// Close writes whatever comes after the findings.
	Close(s finding.Summary) error
}

// Options carry what some formats need beyond the findings.
type Options struct {
	// Rules are the active rules, for formats that list them (sarif, junit).
	Rules []rule.Rule
	// Files are the inputs checked, so junit can show files without findings.
	Files []string
	// FailOn is the lowest severity that fails the run; junit marks those
	// findings as failures. NoFailure means nothing fails.
	FailOn finding.Severity
	// Version is chatlint's version, written where a format names the tool.
	Version string
	// MaxAnnotations caps the github format; 0 means DefaultMaxAnnotations.
	MaxAnnotations int
	// Color lets the text format colour severities (for a terminal).
	Color bool
	// Verbose makes the text formats list every input with its format and
	// record count (the JSON report always does).
	Verbose bool
}

// NoFailure is a FailOn that no finding reaches (--fail-on never).
const NoFailure = finding.Error + 1

var writers = map[string]func(io.Writer, Options) Writer{
	"text":   newTextWriter,
	"json":   func(w io.Writer, _ Options) Writer { return &jsonWriter{w: w} },
	"jsonl":  newJSONLWriter,
	"github": newGitHubWriter,
	"sarif":  newSARIFWriter,
	"junit":  newJUnitWriter,
	"html":   newHTMLWriter,
}

// keyed are the formats that write a key per finding (finding.Key over
// its record's identity), so the run must give findings of records without
// an id their content hash.
var keyed = map[string]bool{"sarif": true}

// KeysFindings reports whether a format writes each finding's key.
func KeysFindings(format string) bool { return keyed[format] }

// Formats lists the output format names.
func Formats() []string {
	var out []string
	for k := range writers {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// New returns the writer for a format name, with default options.
func New(format string, w io.Writer) (Writer, error) {
	return NewWith(format, w, Options{})
}

// NewWith returns the writer for a format name.
func NewWith(format string, w io.Writer, opts Options) (Writer, error) {
	mk, ok := writers[format]
	if !ok {
		return nil, fmt.Errorf("unknown output format %q (want %s)", format, strings.Join(Formats(), ", "))
	}
	if opts.FailOn == 0 {
		opts.FailOn = finding.Info
	}
	return mk(w, opts), nil
}

// ruleTable indexes the known rules by id and adds, in order of first
// sight, rules that only findings name (the reader's own rules, say).
type ruleTable struct {
	rules []rule.Rule
	index map[string]int
}

func newRuleTable(rules []rule.Rule) *ruleTable {
	t := &ruleTable{index: map[string]int{}}
	sorted := slices.Clone(rules)
	slices.SortStableFunc(sorted, func(a, b rule.Rule) int { return strings.Compare(a.ID, b.ID) })
	for _, r := range sorted {
		t.add(r)
	}
	return t
}

func (t *ruleTable) add(r rule.Rule) int {
	if i, ok := t.index[r.ID]; ok {
		return i
	}
	t.index[r.ID] = len(t.rules)
	t.rules = append(t.rules, r)
	return len(t.rules) - 1
}

// of returns the index of the finding's rule, adding it when unknown.
func (t *ruleTable) of(f finding.Finding) int {
	return t.add(rule.Rule{ID: f.Rule, Severity: f.Severity, Pack: f.Pack})
}
