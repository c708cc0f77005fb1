package main

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"

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

// recordKeys gives each finding's record identity for its key: the record's
// id when it has one, else a hash of the record's content (the fallback id,
// file:line, would change whenever a line is inserted above it). lint hashes
// the records its findings name (finding.RecordHash); for a finding the
// reader made without a record (a line over the size limit), the file is
// read again. Findings come in file order, so one forward pass over each
// file suffices; the lines are hashed as they stream by, so a huge record
// costs no memory.
type recordKeys struct {
	file   string
	f      *os.File
	r      *bufio.Reader
	line   int // lines consumed so far
	hashes map[int]string
}

func (k *recordKeys) close() {
	if k.f != nil {
		k.f.Close()
		k.f = nil
	}
}

// identity returns the record part of f's key.
func (k *recordKeys) identity(f finding.Finding) string {
	if f.RecordHash != "" {
		return f.Identity()
	}
	n, ok := finding.FallbackLine(f)
	if !ok || strings.HasPrefix(f.File, "<") { // an id, or stdin that cannot be read again
		return f.Record
	}
	if f.File != k.file {
		k.close()
		k.file, k.line, k.hashes = f.File, 0, map[int]string{}
	}
	if h, ok := k.hashes[n]; ok {
		return h
	}
	if k.f == nil || n <= k.line {
		k.close()
		fh, err := os.Open(f.File)
		if err != nil {
			return f.Record
		}
		k.f, k.r, k.line = fh, bufio.NewReaderSize(fh, 64<<10), 0
	}
	for k.line < n {
		h := sha256.New()
		if err := hashLine(k.r, h); err != nil && err != io.EOF {
			return f.Record
		} else if err == io.EOF && k.line+1 < n {
			return f.Record
		}
		k.line++
		if k.line == n {
			k.hashes[n] = "sha256:" + hex.EncodeToString(h.Sum(nil))[:32]
		}
	}
	return k.hashes[n]
}

// hashLine feeds one line (without its line ending or surrounding blanks
// at the end) to w.
func hashLine(r *bufio.Reader, w io.Writer) error {
	for {
		chunk, err := r.ReadSlice('\n')
		if err == bufio.ErrBufferFull {
			w.Write(chunk)
			continue
		}
		w.Write([]byte(strings.TrimRight(string(chunk), "\r\n \t")))
		return err
	}
}
