// Package finding holds what a rule reports and how findings are ordered.
package finding

import (
	"cmp"
	"fmt"
)

// Severity of a finding. The zero value is invalid.
type Severity int

const (
	Info Severity = iota + 1
	Warning
	Error
)

// ParseSeverity accepts "error", "warning" (or "warn") and "info".
func ParseSeverity(s string) (Severity, error) {
	switch s {
	case "error":
		return Error, nil
	case "warning", "warn":
		return Warning, nil
	case "info":
		return Info, nil
	}
	return 0, fmt.Errorf("unknown severity %q (want error, warning or info)", s)
}

// ParseFailOn reads a --fail-on value: a severity, or "never" (returned as
// 0: nothing fails the run).
func ParseFailOn(s string) (Severity, error) {
	if s == "never" {
		return 0, nil
	}
	if sev, err := ParseSeverity(s); err == nil {
		return sev, nil
	}
	return 0, fmt.Errorf("want error, warning, info or never, not %q", s)
}

func (s Severity) String() string {
	switch s {
	case Error:
		return "error"
	case Warning:
		return "warning"
	case Info:
		return "info"
	}
	return "invalid"
}

// MarshalText makes severities print as words in JSON.
func (s Severity) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// UnmarshalText parses the words MarshalText writes.
func (s *Severity) UnmarshalText(b []byte) error {
	v, err := ParseSeverity(string(b))
	*s = v
	return err
}

// Finding is one problem found in one place of one file.
type Finding struct {
	Rule     string   `json:"rule"`
	Severity Severity `json:"severity"`
	Message  string   `json:"message"`
	File     string   `json:"file"`
	Line     int      `json:"line"`
	Pack     string   `json:"pack"`
	// Record is the conversation or session id, when the finding belongs to one.
	Record string `json:"record,omitempty"`
	// MessageIndex is the 0-based index into the normalized messages.
	MessageIndex *int `json:"message_index,omitempty"`
	// Path is a JSON Pointer into the raw record of the line.
	Path string `json:"path,omitempty"`
	// RecordHash identifies a record that has no id (Record is then its
	// file:line, or empty for a line that is not JSON) by its content:
	// HashRecord of its bytes. Baselines and SARIF fingerprints key such
	// findings by it, so that they still match when lines move. Empty when
	// the record has an id.
	RecordHash string `json:"-"`
}

// Compare orders findings by file, line, rule, then message position and text,
// so that output is the same whatever the number of workers.
func Compare(a, b Finding) int {
	if c := cmp.Compare(a.File, b.File); c != 0 {
		return c
	}
	if c := cmp.Compare(a.Line, b.Line); c != 0 {
		return c
	}
	if c := cmp.Compare(a.Rule, b.Rule); c != 0 {
		return c
	}
	if c := cmp.Compare(index(a.MessageIndex), index(b.MessageIndex)); c != 0 {
		return c
	}
	if c := cmp.Compare(a.Path, b.Path); c != 0 {
		return c
	}
	return cmp.Compare(a.Message, b.Message)
}

func index(p *int) int {
	if p == nil {
		return -1
	}
	return *p
}

// Summary counts what a run saw.
type Summary struct {
	Files    int `json:"files"`
	Records  int `json:"records"`
	Errors   int `json:"errors"`
	Warnings int `json:"warnings"`
	Infos    int `json:"infos"`
	// Inputs lists every input named or found, in file order (absent from
	// reports of runs that read no inputs of their own, such as convert's).
	Inputs []Input `json:"inputs,omitempty"`
}

// Add counts one finding.
func (s *Summary) Add(f Finding) {
	switch f.Severity {
	case Error:
		s.Errors++
	case Warning:
		s.Warnings++
	case Info:
		s.Infos++
	}
}

// Worst returns the highest severity counted, or 0 when there is none.
func (s Summary) Worst() Severity {
	switch {
	case s.Errors > 0:
		return Error
	case s.Warnings > 0:
		return Warning
	case s.Infos > 0:
		return Info
	}
	return 0
}
