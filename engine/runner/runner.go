// Package runner drives a check over many inputs: it reads them, hands each
// record (or session) to a pool of workers that check it with package lint,
// and passes the findings on in a stable order (by file, then line), whatever
// the number of workers, with a bounded number of jobs in flight.
package runner

import (
	"context"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/chatlint/chatlint/engine/document"
	"github.com/chatlint/chatlint/engine/finding"
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
	var ins []finding.Input
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			l := lint.New(r.Engine, r.Opts.Document)
			for j := range jobs {
				results <- result{seq: j.seq, findings: j.check(ctx, l)}
			}
		}()
	}
	go func() {
		p := producer{opts: r.Opts, jobs: jobs, tokens: tokens, counts: &r.read}
		for _, in := range inputs {
			in, err := p.read(ctx, in)
			records += in.Records
			ins = append(ins, in)
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
	for _, in := range ins {
		sum.AddInput(in)
	}
	return sum, errs
}
