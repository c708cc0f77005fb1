// Package runner drives a check: it reads the inputs, normalizes records into
// documents on a pool of workers, evaluates the rules and hands the findings
// on in a stable order (by file, then line), whatever the number of workers.
package runner

import (
	"context"
	"runtime"
	"slices"
	"sync"
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

// result is what a worker made of one job.
type result struct {
	seq      uint64
	findings []finding.Finding
}

// Run checks every input and calls emit for each finding, in order. Inputs
// that cannot be read are returned as errors after the rest was checked.
func (r *Runner) Run(ctx context.Context, inputs []Input, emit func(finding.Finding)) (finding.Summary, []error) {
	workers := r.Opts.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	// Tokens bound the jobs in flight, so memory stays flat however far the
	// reader runs ahead of a slow record.
	tokens := make(chan struct{}, workers*16)
	jobs := make(chan job, workers*4)
	results := make(chan result, workers*4)

	// The producer owns files, records and errs until results is closed;
	// the collector below owns sum.
	var files, records int
	var errs []error
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ev := r.Engine.NewEvaluator()
			for j := range jobs {
				results <- result{seq: j.seq, findings: r.process(ctx, ev, j)}
			}
		}()
	}
	go func() {
		p := producer{opts: r.Opts, jobs: jobs, tokens: tokens, counts: &r.read}
		for _, in := range inputs {
			n, err := p.read(ctx, in)
			records += n
			if err != nil {
				errs = append(errs, err)
				continue
			}
			files++
		}
		close(jobs)
		wg.Wait()
		close(results)
	}()

	var sum finding.Summary
	pending := map[uint64][]finding.Finding{}
	var next uint64
	for res := range results {
		pending[res.seq] = res.findings
		for {
			fs, ok := pending[next]
			if !ok {
				break
			}
			delete(pending, next)
			next++
			<-tokens
			for _, f := range fs {
				sum.Add(f)
				emit(f)
			}
		}
	}
	sum.Files, sum.Records = files, records
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
		line, path, _ := d.Locate(h.Target)
		if h.Path != "" {
			path = h.Path
		}
		f := finding.Finding{
			Rule: h.Rule, Severity: h.Severity, Message: h.Message, Pack: h.Pack,
			File: d.File, Line: line, Record: d.ID, Path: path,
		}
		if i, ok := h.Target.Message(); ok {
			f.MessageIndex = &i
		}
		out = append(out, f)
	}
	return out
}
