package contract

import (
	"context"
	"fmt"
	"hash/maphash"
	"io"
	"math"
	"sync/atomic"

	"github.com/chatlint/chatlint/engine/document"
	"github.com/chatlint/chatlint/engine/internal/py"
	"github.com/chatlint/chatlint/engine/jsonl"
	"github.com/chatlint/chatlint/engine/runner"
)

// Options configure a validation.
type Options struct {
	// InputPath names the input in the report, as given on the command line.
	InputPath string
	// MaxErrors is how many errors the report lists; the rest are counted.
	MaxErrors int
	// Snapshot, when set, receives the messages-only line of each valid
	// record, in input order.
	Snapshot io.Writer
	// Workers is the number of goroutines checking lines; 0 means GOMAXPROCS.
	Workers int
	// Progress, when set, counts the lines and bytes read so far.
	Progress *Progress
}

// Progress counts what a validation has read; safe to read while it runs.
type Progress struct {
	run atomic.Pointer[runner.Runner]
}

// Read returns the lines and bytes read so far.
func (p *Progress) Read() (lines, bytes int64) {
	if r := p.run.Load(); r != nil {
		return r.Progress()
	}
	return 0, 0
}

// lineVerdict is what a worker made of one job: a line's verdict, the end
// of the input, or why the pack could not decide.
type lineVerdict struct {
	verdict
	end bool
	err error
}

// Validate reads r line by line and checks every line against the contract.
// It reads through the runner, as check does, with the splits of the
// reference: Python's universal newlines, every line handed on (blank ones
// too, the report counts them), no line bound, the format forced to
// contract. Lines are checked in parallel in runner.Each's workers and
// their verdicts consumed in input order; memory holds the lines in flight
// plus the set of conversation ids and user ids seen. A read error stops the
// run and is returned; errors name the input.
func (e *Engine) Validate(ctx context.Context, r io.Reader, opts Options) (*Report, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	run := &runner.Runner{Engine: e.eng, Opts: runner.Options{
		Format:      document.Contract,
		Workers:     opts.Workers,
		MaxLineSize: math.MaxInt, // Python reads a line of any length
		Split:       jsonl.SplitUniversal,
		EveryLine:   true,
		// Lines of a few hundred bytes checked by one rule: handed out one
		// by one, waking the workers cost a tenth of the run.
		Batch: 256,
	}}
	if opts.Progress != nil {
		opts.Progress.run.Store(run)
	}
	a := newAccount(opts)
	snapshot := opts.Snapshot != nil
	var failed error
	_, errs := runner.Each(ctx, run, []runner.Input{{Name: opts.InputPath, Reader: r}},
		func() func(runner.Job) lineVerdict {
			ev := e.newEvaluator(opts.InputPath)
			return func(j runner.Job) lineVerdict { return ev.job(ctx, j, snapshot) }
		},
		func(v lineVerdict) {
			if failed != nil {
				return
			}
			if failed = a.add(v); failed != nil {
				cancel() // stop reading: the report cannot be made
			}
		})
	// The consumer's own error first: when it stopped the run, the reader
	// only saw the cancellation.
	if failed != nil {
		return nil, fmt.Errorf("%s: %w", opts.InputPath, failed)
	}
	if len(errs) > 0 {
		return nil, errs[0]
	}
	return a.report(), nil
}

// job decides the line of one job.
func (e *evaluator) job(ctx context.Context, j runner.Job, snapshot bool) lineVerdict {
	switch {
	case j.End:
		return lineVerdict{end: true}
	case j.Finding != nil: // the reader's own (a line over its bound): not expected without one
		return lineVerdict{err: fmt.Errorf("line %d: %s", j.Finding.Line, j.Finding.Message)}
	}
	rec := j.Records[0]
	// The line as read, less its terminator: Data lacks a leading
	// byte-order mark, which Python's json rejects.
	line := rec.Raw[:len(rec.Raw)-len(rec.End)]
	v, err := e.checkLine(ctx, rec.Line, line, snapshot)
	v.line = rec.Line
	return lineVerdict{verdict: v, err: err}
}

// account gathers the verdicts, in input order, into the report. Only the
// sets of conversation ids and user ids grow with the input.
//
// Both sets hold 128-bit hashes of the ids rather than the ids: 16 bytes an
// id whatever its length, and maps without pointers, which the garbage
// collector does not have to scan (with strings, scanning a map of millions
// of ids made each collection slower as the file went on). Two different ids
// sharing a hash is about one chance in 10^21 for a billion ids.
type account struct {
	opts      Options
	rep       Report
	firstLine map[idHash]int // conversation id -> line of its first valid record
	users     map[idHash]struct{}
	seeds     [2]maphash.Seed
}

type idHash [2]uint64

func (a *account) hash(s string) idHash {
	return idHash{maphash.String(a.seeds[0], s), maphash.String(a.seeds[1], s)}
}

func newAccount(opts Options) *account {
	return &account{
		opts:      opts,
		rep:       Report{InputPath: py.Path(opts.InputPath), MaxErrors: opts.MaxErrors},
		firstLine: map[idHash]int{},
		users:     map[idHash]struct{}{},
		seeds:     [2]maphash.Seed{maphash.MakeSeed(), maphash.MakeSeed()},
	}
}

func (a *account) add(v lineVerdict) error {
	if v.err != nil {
		return v.err
	}
	if v.end {
		return nil
	}
	n := v.line
	a.rep.TotalLines++
	if v.blank {
		return nil
	}
	a.rep.NonEmptyLines++
	if v.code != "" {
		a.error(n, v.code, v.msg)
		return nil
	}
	// A duplicate is judged against valid records only: a line that
	// failed the contract does not reserve its id.
	id := a.hash(v.id)
	if first, dup := a.firstLine[id]; dup {
		a.rep.DuplicateIDs++
		a.error(n, CodeDuplicateID, fmt.Sprintf("Duplicate conversation_id '%s' in dataset (first seen on line %d).", v.id, first))
		return nil
	}
	a.firstLine[id] = n
	a.users[a.hash(v.user)] = struct{}{}
	s := &a.rep.Summary
	if s.Conversations == 0 || v.turns < s.MinTurns {
		s.MinTurns = v.turns
	}
	s.MaxTurns = max(s.MaxTurns, v.turns)
	s.Conversations++
	s.Messages += v.turns
	if a.opts.Snapshot != nil {
		if _, err := a.opts.Snapshot.Write(v.snapshot); err != nil {
			return err
		}
		a.rep.MessagesWritten++
	}
	return nil
}

func (a *account) error(line int, code, msg string) {
	a.rep.ErrorCount++
	if len(a.rep.Errors) < a.opts.MaxErrors {
		a.rep.Errors = append(a.rep.Errors, Error{Line: line, Code: code, Message: msg})
	} else {
		a.rep.DroppedErrors++
	}
}

func (a *account) report() *Report {
	r := &a.rep
	if r.NonEmptyLines == 0 {
		a.error(0, CodeEmpty, fmt.Sprintf("No non-empty JSONL lines found in %s.", r.InputPath))
	}
	r.Valid = r.Summary.Conversations
	r.Invalid = r.NonEmptyLines - r.Valid
	r.UniqueIDs = len(a.firstLine)
	r.IsValid = r.NonEmptyLines > 0 && r.Invalid == 0
	r.Summary.UniqueUsers = len(a.users)
	if r.Valid > 0 {
		r.Summary.AvgTurns = float64(r.Summary.Messages) / float64(r.Valid)
	}
	return r
}
