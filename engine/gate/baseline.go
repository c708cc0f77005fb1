package gate

import (
	"encoding/json"
	"fmt"
	"os"

	"github.com/chatlint/chatlint/engine/atomicfile"
	"github.com/chatlint/chatlint/engine/finding"
)

// A baseline lists the findings a dataset already had when a team adopted a
// rule, so CI fails only on new ones. Entries match by finding.Key, which
// leaves the line number out: records may move, be added or be removed
// around a known finding and it still matches. Each entry counts as many
// findings as were recorded under its key.
type baselineFile struct {
	Version  int             `json:"version"`
	Findings []baselineEntry `json:"findings"`
}

type baselineEntry struct {
	Key string `json:"key"`
	// The rest is for people reviewing the file; matching uses Key only.
	Rule    string `json:"rule"`
	File    string `json:"file"`
	Line    int    `json:"line"`
	Record  string `json:"record,omitempty"`
	Path    string `json:"path,omitempty"`
	Message string `json:"message"`
}

const baselineVersion = 1

// baseline is a loaded baseline: the count of known findings per key.
type baseline struct {
	left map[string]int
}

func loadBaseline(path string) (*baseline, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("--baseline: %w", err)
	}
	var f baselineFile
	if err := json.Unmarshal(raw, &f); err != nil {
		return nil, fmt.Errorf("--baseline %s: not a chatlint baseline: %v", path, err)
	}
	if f.Version != baselineVersion {
		return nil, fmt.Errorf("--baseline %s: version %d, want %d (write it again with --write-baseline)", path, f.Version, baselineVersion)
	}
	b := &baseline{left: map[string]int{}}
	for _, e := range f.Findings {
		b.left[e.Key]++
	}
	return b, nil
}

// known reports whether a finding is in the baseline, using up one entry.
func (b *baseline) known(key string) bool {
	if b.left[key] > 0 {
		b.left[key]--
		return true
	}
	return false
}

// baselineWriter writes the findings of a run for --write-baseline as they
// come, so that memory does not grow with them: the entries go to the
// temporary file of an atomic replacement, committed when the run ends.
type baselineWriter struct {
	path string
	f    *atomicfile.File
	n    int   // entries written
	err  error // the first failure; the file is then aborted
}

func newBaselineWriter(path string) (*baselineWriter, error) {
	f, err := atomicfile.Create(path, 0o644)
	if err != nil {
		return nil, fmt.Errorf("--write-baseline: %w", err)
	}
	w := &baselineWriter{path: path, f: f}
	// The layout json.MarshalIndent gives the whole baselineFile.
	_, w.err = fmt.Fprintf(f, "{\n  \"version\": %d,\n  \"findings\": [", baselineVersion)
	return w, nil
}

func (w *baselineWriter) add(f finding.Finding, key string) {
	if w.err != nil {
		return
	}
	b, err := json.MarshalIndent(baselineEntry{Key: key, Rule: f.Rule, File: f.File, Line: f.Line,
		Record: f.Record, Path: f.Path, Message: f.Message}, "    ", "  ")
	if err != nil {
		w.err = err
		return
	}
	sep := ",\n    "
	if w.n == 0 {
		sep = "\n    "
	}
	if _, w.err = w.f.Write(append([]byte(sep), b...)); w.err == nil {
		w.n++
	}
}

func (w *baselineWriter) write() error {
	end := "]\n}\n"
	if w.n > 0 {
		end = "\n  ]\n}\n"
	}
	if w.err == nil {
		_, w.err = w.f.Write([]byte(end))
	}
	if w.err != nil {
		w.f.Abort()
		return fmt.Errorf("--write-baseline: %w", w.err)
	}
	if err := w.f.Commit(); err != nil {
		return fmt.Errorf("--write-baseline: %w", err)
	}
	return nil
}

// abort drops the baseline of a run that did not finish; the file named is
// left as it was. It does nothing after write.
func (w *baselineWriter) abort() { w.f.Abort() }
