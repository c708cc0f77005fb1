package runner

import (
	"context"
	"runtime"
	"time"

	"github.com/chatlint/chatlint/engine/finding"
	"github.com/chatlint/chatlint/engine/internal/ordered"
	"github.com/chatlint/chatlint/engine/jsonl"
	"github.com/chatlint/chatlint/engine/lint"
)

// Job is one unit of work as a worker sees it: the records of one document
// (one record of a per-record format, or a whole session file), records of a
// file in no known format (Format ""), or a finding the reader made itself.
type Job struct {
	lint.Unit
	Finding *finding.Finding
	// End marks the last job of an input, after all its records (an input
	// without records has only this one); Err is then why the input could
	// not be read to its end, so a command that rewrites files never writes
	// a truncated one. Check ignores it.
	End bool
	Err error
	// Layout, with End, is what the input held besides its records, for
	// the dataset fold (nil when it could not be read).
	Layout *FileLayout
}

// FileLayout is what an input held besides its records: its blank lines
// and byte-order mark (jsonl.Layout), and how many records it held.
type FileLayout struct {
	Records int
	jsonl.Layout
}

// Totals are what the reader read.
type Totals struct {
	Files, Records int
	// Inputs says, per input, its format and records or why it was not read.
	Inputs []finding.Input
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

// MaxWorkers is the most workers Each runs: 4 per core (GOMAXPROCS), at
// least 4. The workers are CPU-bound, and each holds evaluators and an
// in-flight budget of its own, so more only cost memory (--workers
// 1000000 on a 4 KB file took 5.8 GB).
func MaxWorkers() int { return max(4, 4*runtime.GOMAXPROCS(0)) }

// Each reads every input, hands each job to a pool of workers and passes the
// results to emit in input order: by file, then line, whatever the number of
// workers. Each worker calls newWork once for the function it applies to its
// jobs, so per-worker state (a linter, an evaluator) lives in that closure.
// The jobs in flight are bounded, so memory stays flat however far the
// reader runs ahead. Inputs that cannot be read are returned as errors after
// the rest was processed. check and fix share this pipeline; only what a job
// turns into differs.
func Each[R any](ctx context.Context, r *Runner, inputs []Input, newWork func() func(Job) R, emit func(R)) (Totals, []error) {
	workers := r.Opts.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = min(workers, MaxWorkers())
	limit := int64(workers) * budgetPerWorker
	if r.budget > 0 {
		limit = r.budget
	}
	// The producer owns tot and errs until Weighted returns.
	var tot Totals
	var errs []error
	var pc pace
	produce := func(ctx context.Context, send func(batch) bool, room func(int64) bool) error {
		b := newBatcher(max(r.Opts.Batch, 0), limit/8, &pc, send)
		p := producer{opts: r.Opts, counts: &r.read, sink: b.add, waiting: b.waiting, room: room}
		for _, in := range inputs {
			sum, err := p.read(ctx, in)
			var layout *FileLayout
			if err == nil {
				l := p.layout
				layout = &l
			}
			p.send(job{unit: lint.Unit{File: in.Name}, end: true, err: err, layout: layout})
			tot.Records += sum.Records
			tot.Inputs = append(tot.Inputs, sum)
			if err != nil {
				errs = append(errs, err)
				continue
			}
			tot.Files++
		}
		b.flush()
		return nil
	}
	work := func() func(context.Context, batch) []R {
		w := newWork()
		return func(_ context.Context, b batch) []R {
			start := time.Now()
			out := make([]R, len(b.jobs))
			for i, j := range b.jobs {
				out[i] = w(Job{Unit: j.unit, Finding: j.finding, End: j.end, Err: j.err, Layout: j.layout})
			}
			pc.measured(b.work, time.Since(start))
			// A worker that finds the next batch waiting never blocks, so
			// the producer and the emitter it woke (queued to run next on
			// its core) would wait for the scheduler to preempt it by a
			// signal, which cost more than the batches saved. Yielding
			// after each batch lets them run at once.
			runtime.Gosched()
			return out
		}
	}
	weigh := func(b batch) int64 { return b.weight }
	ordered.WeightedRoom(ctx, workers, limit, weigh, produce, work, func(rs []R) bool {
		for _, v := range rs {
			emit(v)
		}
		return true
	})
	return tot, errs
}
