package runner

import (
	"context"

	"github.com/chatlint/chatlint/engine/document"
	"github.com/chatlint/chatlint/engine/finding"
	"github.com/chatlint/chatlint/engine/lint"
)

// checked is what a check worker makes of one job.
type checked struct {
	findings []finding.Finding
	facts    []lint.Facts
	file     string
	format   document.Format
	end      bool
	layout   *FileLayout // with end: what the file held besides records
}

// folder folds each file's record facts into its dataset document and
// evaluates the dataset rules when the file ends. It is nil-safe: a run
// whose packs have no dataset rule for its profile folds nothing.
type folder struct {
	ctx context.Context
	l   *lint.Linter
	cur *lint.Dataset
}

func newFolder(ctx context.Context, r *Runner) *folder {
	l := lint.New(r.Engine, r.Opts.Document)
	l.HashRecords(r.Opts.RecordHashes)
	if !l.Folds() {
		return nil
	}
	return &folder{ctx: ctx, l: l}
}

// add folds one job's facts and, at the end of a file, returns the
// findings of the dataset rules on it.
func (f *folder) add(c checked) []finding.Finding {
	if f == nil {
		return nil
	}
	if len(c.facts) > 0 && (f.cur == nil || f.cur.File != c.file) {
		f.cur = lint.NewDataset(c.file, c.format, f.l.Options())
	}
	for _, x := range c.facts {
		f.cur.Add(x)
	}
	if !c.end {
		return nil
	}
	if c.layout != nil && c.layout.Records == 0 && (f.cur == nil || f.cur.File != c.file) {
		// A file without records has no facts: its fold is an empty
		// file's, for the rules that judge one.
		f.cur = lint.NewDataset(c.file, "", f.l.Options())
	}
	if f.cur == nil || f.cur.File != c.file {
		return nil
	}
	if c.layout != nil {
		f.cur.SetLayout(c.layout.Layout)
	}
	out := f.l.CheckDataset(f.ctx, f.cur)
	f.cur = nil
	return out
}
