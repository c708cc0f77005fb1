// Package runner drives a check over many inputs: it reads them, hands each
// record (or session) to a pool of workers that check it with package lint,
// and passes the findings on in a stable order (by file, then line), whatever
// the number of workers, with a bounded number of bytes in flight.
package runner

import (
	"context"
	"sync/atomic"

	"github.com/chatlint/chatlint/engine/document"
	"github.com/chatlint/chatlint/engine/finding"
	"github.com/chatlint/chatlint/engine/jsonl"
	"github.com/chatlint/chatlint/engine/lint"
	"github.com/chatlint/chatlint/engine/policy"
)

// Options configure a run.
type Options struct {
	// Format forces the input format; empty means detect it per file.
	Format document.Format
	// Document tunes normalization.
	Document document.Options
	// Workers is the number of goroutines normalizing and evaluating;
	// 0 means GOMAXPROCS.
	Workers int
	// MaxLineSize bounds a line (a .json document as a whole); a longer
	// one is a line-too-long finding. 0 means jsonl.DefaultMaxLineSize.
	MaxLineSize int
	// Split is how lines end: jsonl.SplitLF (JSON Lines) unless a command
	// must count lines as a Python tool reading in text mode does.
	Split jsonl.Split
	// EveryLine reads every input as JSON Lines whatever its name (no .json
	// documents) and hands blank lines on as records too: for a command
	// that forces its Format and gives a verdict on each line, as a
	// line-oriented reference tool does (validate-input). Check and fix
	// leave it off: lint takes no blank records.
	EveryLine bool
	// Batch hands the workers up to this many consecutive jobs at a time
	// (fewer when they weigh an eighth of the budget); 1 hands them one by
	// one. 0, the default, sizes each batch by time: as many jobs as the
	// workers' pace so far says take about a millisecond, so cheap records
	// go in bunches and a costly one alone. Handing jobs over one by one
	// costs as much as checking a small record against one rule.
	Batch int
	// RecordHashes gives the findings of records without an id their
	// content hash (finding.Finding.RecordHash), for a baseline or SARIF
	// fingerprints; a run that writes neither leaves it off.
	RecordHashes bool
	// Projected says the linter decodes records as its rules' projection
	// says (check): detection's decode of a first record of
	// lint.HandOverMax bytes or more is then dropped rather than handed on
	// as Unit.First, and the record decoded again.
	Projected bool
}

// Runner checks inputs against one compiled engine.
type Runner struct {
	Engine *policy.Engine
	Opts   Options

	read progress
	// budget overrides workers*budgetPerWorker, for tests.
	budget int64
}

// progress counts what the reader has read so far.
type progress struct {
	records, bytes atomic.Int64
}

// Progress returns the records and bytes read so far; safe to call while
// Run is going, for a progress display.
func (r *Runner) Progress() (records, bytes int64) {
	return r.read.records.Load(), r.read.bytes.Load()
}

// Run checks every input and calls emit for each finding, in order. Inputs
// that cannot be read are returned as errors after the rest was checked.
func (r *Runner) Run(ctx context.Context, inputs []Input, emit func(finding.Finding)) (finding.Summary, []error) {
	var sum finding.Summary
	check := func() func(Job) checked {
		l := lint.New(r.Engine, r.Opts.Document)
		l.HashRecords(r.Opts.RecordHashes)
		return func(j Job) checked {
			if j.Finding != nil {
				return checked{findings: []finding.Finding{*j.Finding}}
			}
			j.Unit.Release = true // nothing below reads the records
			fs, facts := l.CheckFacts(ctx, j.Unit)
			return checked{findings: fs, facts: facts, file: j.File, format: j.Format, end: j.End, layout: j.Layout}
		}
	}
	// Dataset rules: the facts of each file's records are folded, in
	// order, and the file's dataset document is evaluated after its last
	// record, here on the one goroutine that emits.
	fold := newFolder(ctx, r)
	tot, errs := Each(ctx, r, inputs, check, func(c checked) {
		for _, f := range c.findings {
			sum.Add(f)
			emit(f)
		}
		for _, f := range fold.add(c) {
			sum.Add(f)
			emit(f)
		}
	})
	sum.Files, sum.Records = tot.Files, tot.Records
	for _, in := range tot.Inputs {
		sum.AddInput(in)
	}
	return sum, errs
}
