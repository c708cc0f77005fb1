// Package runner drives a check: it reads the inputs, normalizes records into
// documents on a pool of workers, evaluates the rules and hands the findings
// on in a stable order (by file, then line), whatever the number of workers.
package runner

import (
	"context"
	"slices"
	"sync/atomic"

	"github.com/chatlint/chatlint/engine/document"
	"github.com/chatlint/chatlint/engine/finding"
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
}

// Runner checks inputs against one compiled engine.
type Runner struct {
	Engine *policy.Engine
	Opts   Options

	read progress
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
	tot, errs := Each(ctx, r, inputs, func(ev *policy.Evaluator, j Job) []finding.Finding {
		return r.process(ctx, ev, job{file: j.File, format: j.Format, records: j.Records, finding: j.Finding})
	}, func(fs []finding.Finding) {
		for _, f := range fs {
			sum.Add(f)
			emit(f)
		}
	})
	sum.Files, sum.Records = tot.Files, tot.Records
	return sum, errs
}

// process turns one job into its findings, sorted.
func (r *Runner) process(ctx context.Context, ev *policy.Evaluator, j job) []finding.Finding {
	var out []finding.Finding
	if j.finding != nil {
		out = append(out, *j.finding)
	}
	if len(j.records) == 0 {
		return out
	}
	b := document.NewBuilder(j.format, j.file, r.Opts.Document)
	for _, rec := range j.records {
		obj, bad := decodeRecord(j.file, rec)
		if bad != nil {
			out = append(out, *bad)
			continue
		}
		if j.format == "" { // unrecognized file: only syntax is checked
			continue
		}
		if d := b.Add(rec.Line, obj); d != nil {
			out = r.evaluate(ctx, ev, d, out)
		}
	}
	if d := b.Finish(); d != nil {
		out = r.evaluate(ctx, ev, d, out)
	}
	slices.SortFunc(out, finding.Compare)
	return out
}

func (r *Runner) evaluate(ctx context.Context, ev *policy.Evaluator, d *document.Document, out []finding.Finding) []finding.Finding {
	hits, err := ev.Evaluate(ctx, d)
	if err != nil {
		out = append(out, coreFinding(RulePolicyError, d.File, d.Line, err.Error()))
	}
	for _, h := range hits {
		line, path := d.Locate(h.MessageIndex, h.ToolCallIndex, h.ToolIndex, h.EntryIndex)
		if h.Path != "" {
			path = h.Path
		}
		f := finding.Finding{
			Rule: h.Rule, Severity: h.Severity, Message: h.Message, Pack: h.Pack,
			File: d.File, Line: line, Record: d.ID, Path: path,
		}
		if h.MessageIndex >= 0 {
			f.MessageIndex = &h.MessageIndex
		}
		out = append(out, f)
	}
	return out
}
