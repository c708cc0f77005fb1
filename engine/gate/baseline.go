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

// baselineWriter gathers the findings of a run for --write-baseline.
type baselineWriter struct {
	path    string
	entries []baselineEntry
}

func (w *baselineWriter) add(f finding.Finding, key string) {
	w.entries = append(w.entries, baselineEntry{Key: key, Rule: f.Rule, File: f.File, Line: f.Line,
		Record: f.Record, Path: f.Path, Message: f.Message})
}

func (w *baselineWriter) write() error {
	if w.entries == nil {
		w.entries = []baselineEntry{}
	}
	data, err := json.MarshalIndent(baselineFile{Version: baselineVersion, Findings: w.entries}, "", "  ")
	if err != nil {
		return err
	}
	if err := atomicfile.WriteFile(w.path, append(data, '\n'), 0o644); err != nil {
		return fmt.Errorf("--write-baseline: %w", err)
	}
	return nil
}
