package pipeline

import (
	"cmp"
	"context"
	"slices"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"

	"github.com/chatlint/chatlint/engine/document"
	"github.com/chatlint/chatlint/engine/gate"
	"github.com/chatlint/chatlint/engine/jsonl"
	"github.com/chatlint/chatlint/engine/lint"
	"github.com/chatlint/chatlint/engine/policy"
	"github.com/chatlint/chatlint/engine/runner"
)

// Dataset rules (docs/document.md#the-dataset-document) judge a file, not a
// record: they are evaluated once per file over the file's dataset document,
// folded from what each record's check keeps of it (lint.Facts: its line,
// record type, content hash and, when a rule reads them, its tokens). The
// records of a file are checked wherever the runner puts them, so CheckFn
// emits each record's facts keyed by its file, a GroupByKey brings a file's
// facts together, and DatasetFn folds them in line order, as `chatlint
// check` does, and evaluates the dataset rules. ReadFn adds one fact per
// file, its layout: the byte-order mark and blank lines the reader skipped
// and its number of records, which no record's check sees (the provider
// profiles' file rules read them, and an empty file has no record facts).
// A job whose packs have no dataset rule for its profile emits no record
// facts, and this step only drops the layouts.
//
//	ReadFn ─▶ (file, layout Fact) ─┐
//	CheckFn ─▶ (file, Fact) ───────┴▶ GroupByKey ─▶ DatasetFn ─▶ findings, tallies

// Fact is lint.Facts in a form Beam can encode, with the file's format; or,
// with Layout set, what the reader saw of the file besides its records
// (runner.FileLayout), which ReadFn emits once per file.
type Fact struct {
	Format string
	Line   int
	Type   string
	Hash   uint64
	Tokens int
	// Member and Key are lint.Facts' dataset key.
	Member, Key string

	// Layout marks the file's layout fact: BOM, Blank and Blanks are its
	// jsonl.Layout, Records the records the reader read.
	Layout  bool
	BOM     bool
	Blank   []int
	Blanks  int
	Records int
}

func layoutFact(format string, l runner.FileLayout) Fact {
	return Fact{Format: format, Layout: true, BOM: l.BOM, Blank: l.Blank, Blanks: l.Blanks, Records: l.Records}
}

// buildDataset adds the fold and the dataset rules to a check job.
func buildDataset(s beam.Scope, cfg Config, facts beam.PCollection) (findings, tallies beam.PCollection) {
	s = s.Scope("Dataset")
	return beam.ParDo2(s, &DatasetFn{Config: cfg}, beam.GroupByKey(s, facts))
}

// DatasetFn folds one file's facts into its dataset document and emits the
// findings of the dataset rules, each with a tally.
type DatasetFn struct {
	Config Config

	linter *lint.Linter
	gate   *gate.Gate
}

// Setup builds the instance's linter, as CheckFn's.
func (fn *DatasetFn) Setup(ctx context.Context) error {
	var err error
	if fn.linter, err = fn.Config.linter(ctx); err != nil {
		return err
	}
	fn.gate, err = fn.Config.Settings.gate()
	return err
}

// ProcessElement folds the facts of one file. They arrive in any order;
// the fold takes them in line order (the first copy of a duplicate is the
// one on the earliest line). A file holds one format, so the first fact's
// is the file's. The file's layout fact, when the reader read it whole,
// gives the fold its byte-order mark and blank lines, and makes a file
// without records an empty file's fold, as check's fold does
// (engine/runner/dataset.go).
func (fn *DatasetFn) ProcessElement(ctx context.Context, file string, iter func(*Fact) bool, emitFinding func(string), emitTally func(Tally)) {
	var facts []Fact
	var layout *Fact
	var f Fact
	for iter(&f) {
		if f.Layout {
			l := f
			layout = &l
			continue
		}
		facts = append(facts, f)
	}
	if !fn.linter.Folds() {
		return
	}
	slices.SortFunc(facts, func(a, b Fact) int { return cmp.Compare(a.Line, b.Line) })
	var ds *lint.Dataset
	switch {
	case len(facts) > 0:
		ds = lint.NewDataset(file, document.Format(facts[0].Format), fn.linter.Options())
	case layout != nil && layout.Records == 0:
		ds = lint.NewDataset(file, "", fn.linter.Options())
	default:
		return
	}
	for _, x := range facts {
		ds.Add(lint.Facts{Line: x.Line, Type: x.Type, Hash: x.Hash, Tokens: x.Tokens, Member: x.Member, Key: x.Key})
	}
	if layout != nil {
		ds.SetLayout(jsonl.Layout{BOM: layout.BOM, Blank: layout.Blank, Blanks: layout.Blanks})
	}
	out := output{finding: emitFinding, tally: emitTally, gate: fn.gate}
	for _, x := range fn.linter.CheckDataset(ctx, ds) {
		out.emit(x)
	}
}

// linter is the linter a check worker uses: the engine of the job's
// packs, the document options of check, and the model check would pick
// (--model, else the model tables' default), which rules read as the
// document's model.
func (c Config) linter(ctx context.Context) (*lint.Linter, error) {
	eng, err := c.engine(ctx)
	if err != nil {
		return nil, err
	}
	opts, err := c.options(eng)
	if err != nil {
		return nil, err
	}
	return lint.New(eng, opts), nil
}

func (c Config) options(eng *policy.Engine) (document.Options, error) {
	opts := c.documentOptions()
	name := c.Model
	if name == "" {
		name = eng.DefaultModel()
	}
	if name != "" {
		m, err := eng.Model(name)
		if err != nil {
			return opts, err
		}
		opts.Model = m
	}
	return opts, nil
}
