// Package report writes findings in each output format. Every format is one
// Writer; commands pick one by name.
package report

import (
	"bufio"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/chatlint/chatlint/engine/finding"
)

// Writer receives findings in order, then the summary.
type Writer interface {
	// Finding writes (or buffers) one finding.
	Finding(f finding.Finding) error
	// Close writes whatever comes after the findings.
	Close(s finding.Summary) error
}

var writers = map[string]func(io.Writer, options) Writer{
	"text":   func(w io.Writer, o options) Writer { return &textWriter{bw: bufio.NewWriter(w), verbose: o.verbose} },
	"json":   func(w io.Writer, _ options) Writer { return &jsonWriter{w: w} },
	"github": func(w io.Writer, o options) Writer { return &githubWriter{bw: bufio.NewWriter(w), verbose: o.verbose} },
}

type options struct {
	verbose bool
}

// Option tunes a writer.
type Option func(*options)

// Verbose makes the text formats list every input with its format and
// record count (the JSON report always does).
func Verbose(on bool) Option { return func(o *options) { o.verbose = on } }

// Formats lists the output format names.
func Formats() []string {
	var out []string
	for k := range writers {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// New returns the writer for a format name.
func New(format string, w io.Writer, opts ...Option) (Writer, error) {
	mk, ok := writers[format]
	if !ok {
		return nil, fmt.Errorf("unknown output format %q (want %s)", format, strings.Join(Formats(), ", "))
	}
	var o options
	for _, opt := range opts {
		opt(&o)
	}
	return mk(w, o), nil
}
