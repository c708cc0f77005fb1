// Package runner drives a check over many inputs: it reads them, hands each
// record (or session) to a pool of workers that check it with package lint,
// and passes the findings on in a stable order (by file, then line), whatever
// the number of workers, with a bounded number of bytes in flight.
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

// result is what a worker made of one job.
type result struct {
	seq      uint64
	weight   int64 // the job's share of the budget, given back once emitted
	findings []finding.Finding
}

// The bytes of input in flight per worker. A job weighs its records' bytes
// plus jobOverhead (its decoded document and findings), so small records are
// bounded too: about 190 records of 5 KB per worker. A record of a few MB
// still goes to every worker; a larger one runs with fewer beside it, and
// one larger than the whole budget alone.
const (
	budgetPerWorker = 4 << 20
	jobOverhead     = 16 << 10
)

// Run checks every input and calls emit for each finding, in order. Inputs
// that cannot be read are returned as errors after the rest was checked.
func (r *Runner) Run(ctx context.Context, inputs []Input, emit func(finding.Finding)) (finding.Summary, []error) {
	workers := r.Opts.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	// The budget bounds the bytes in flight, so memory stays flat however
	// far the reader runs ahead of a slow record, and however large records
	// are.
	limit := int64(workers) * budgetPerWorker
	if r.budget > 0 {
		limit = r.budget
	}
	inFlight := newBudget(limit)
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
			l := lint.New(r.Engine, r.Opts.Document)
			for j := range jobs {
				results <- result{seq: j.seq, weight: j.weight, findings: j.check(ctx, l)}
			}
		}()
	}
	go func() {
		p := producer{opts: r.Opts, jobs: jobs, budget: inFlight, counts: &r.read}
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
	pending := map[uint64]result{}
	var next uint64
	for res := range results {
		pending[res.seq] = res
		for {
			done, ok := pending[next]
			if !ok {
				break
			}
			delete(pending, next)
			next++
			inFlight.release(done.weight)
			for _, f := range done.findings {
				sum.Add(f)
				emit(f)
			}
		}
	}
	sum.Files, sum.Records = files, records
	return sum, errs
}
