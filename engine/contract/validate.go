package contract

import (
	"context"
	"fmt"
	"hash/maphash"
	"io"
	"sync/atomic"

	"github.com/chatlint/chatlint/engine/document"
	"github.com/chatlint/chatlint/engine/internal/py"
	"github.com/chatlint/chatlint/engine/jsonl"
	"github.com/chatlint/chatlint/engine/lint"
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
	// MaxLineSize bounds a line; a longer one is read past without being
	// held and reported as line_too_long. 0 means jsonl.DefaultMaxLineSize.
	MaxLineSize int
	// MaxValues bounds the values one line builds (astjson.DecodeMax); a
	// line over it is a record_too_dense error, and the run goes on. 0
	// means astjson.DefaultMaxValues.
	MaxValues int
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
// too, the report counts them), the format forced to
// contract. Unlike the reference, a line is bounded (opts.MaxLineSize): a
// longer one is a line_too_long error and the run goes on. Lines are checked in parallel in runner.Each's workers and
// their verdicts consumed in input order; memory holds the lines in flight
// plus the fold of conversation ids (lint.Dataset) and the user ids seen.
// After the last line the pack's dataset rule judges the ids. A read error stops the
// run and is returned; errors name the input.
func (e *Engine) Validate(ctx context.Context, r io.Reader, opts Options) (*Report, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	run := &runner.Runner{Opts: runner.Options{
		Format:      document.Contract,
		Workers:     opts.Workers,
		MaxLineSize: opts.MaxLineSize,
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
			ev := e.newEvaluator(opts.InputPath, opts.MaxValues)
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
	return a.report(ctx, e)
}

// job decides the line of one job.
func (e *evaluator) job(ctx context.Context, j runner.Job, snapshot bool) lineVerdict {
	switch {
	case j.End:
		return lineVerdict{end: true}
	case j.Finding != nil && j.Finding.Rule == lint.RuleLineTooLong:
		return lineVerdict{verdict: verdict{line: j.Finding.Line, code: CodeLineTooLong, msg: j.Finding.Message}}
	case j.Finding != nil: // no other finding of the reader's is expected
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

// account gathers the verdicts, in input order, into the report. The
// records that meet the contract are folded into the file's dataset
// document (their conversation_ids: lint.Dataset's keys), whose rule, the
// pack's contract-duplicate-id, decides at the end which repeat an id. Only
// the fold of ids and the set of user ids grow with the input (see
// lint.Dataset for the bound); the errors kept are at most MaxErrors.
//
// The user set holds 128-bit hashes of the ids rather than the ids: 16
// bytes an id whatever its length, and a map without pointers, which the
// garbage collector does not have to scan. Two different ids sharing a hash
// is about one chance in 10^21 for a billion ids.
type account struct {
	opts  Options
	rep   Report
	ds    *lint.Dataset
	users map[idHash]struct{}
	seeds [2]maphash.Seed
	// errs are the first MaxErrors errors of the records, in line order;
	// nerrs counts them all.
	errs  []Error
	nerrs int
}

type idHash [2]uint64

func (a *account) hash(s string) idHash {
	return idHash{maphash.String(a.seeds[0], s), maphash.String(a.seeds[1], s)}
}

func newAccount(opts Options) *account {
	return &account{
		opts:  opts,
		rep:   Report{InputPath: py.Path(opts.InputPath), MaxErrors: opts.MaxErrors},
		ds:    lint.NewDataset(opts.InputPath, document.Contract, document.Options{}),
		users: map[idHash]struct{}{},
		seeds: [2]maphash.Seed{maphash.MakeSeed(), maphash.MakeSeed()},
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
		a.nerrs++
		if len(a.errs) < a.opts.MaxErrors {
			a.errs = append(a.errs, Error{Line: n, Code: v.code, Message: v.msg})
		}
		return nil
	}
	// The fold lists a repeated id only while its error can still be among
	// the first MaxErrors of the report; beyond, it only counts it.
	a.ds.KeyBound = max(0, a.opts.MaxErrors-a.nerrs)
	if first := a.ds.Add(v.key); first != 0 {
		return nil // the id of an earlier conversation: the dataset rule's to report
	}
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

// report finishes the report: the dataset rule's errors join the records',
// in line order, and the first MaxErrors are listed.
func (a *account) report(ctx context.Context, e *Engine) (*Report, error) {
	r := &a.rep
	distinct, repeats, listed := a.ds.Keys()
	var dups []Error
	if a.ds.Records() > 0 {
		var err error
		if dups, err = e.checkDataset(ctx, a.ds); err != nil {
			return nil, err
		}
	}
	for _, d := range dups {
		if d.Code == CodeDuplicateID {
			r.DuplicateIDs++
		}
	}
	// Repeats beyond the listed ones fall after the report's last listed
	// error: they are counted, as the errors beyond MaxErrors are.
	r.DuplicateIDs += repeats - listed
	r.ErrorCount = a.nerrs + len(dups) + repeats - listed
	r.Errors = mergeErrors(a.errs, dups, a.opts.MaxErrors)
	r.DroppedErrors = r.ErrorCount - len(r.Errors)
	if r.NonEmptyLines == 0 {
		r.ErrorCount++
		if len(r.Errors) < a.opts.MaxErrors {
			r.Errors = append(r.Errors, Error{Line: 0, Code: CodeEmpty, Message: fmt.Sprintf("No non-empty JSONL lines found in %s.", r.InputPath)})
		} else {
			r.DroppedErrors++
		}
	}
	r.Valid = r.Summary.Conversations
	r.Invalid = r.NonEmptyLines - r.Valid
	r.UniqueIDs = distinct
	r.IsValid = r.NonEmptyLines > 0 && r.Invalid == 0
	r.Summary.UniqueUsers = len(a.users)
	if r.Valid > 0 {
		r.Summary.AvgTurns = float64(r.Summary.Messages) / float64(r.Valid)
	}
	return r, nil
}

// mergeErrors merges two lists of errors in line order, keeping the first
// n.
func mergeErrors(x, y []Error, n int) []Error {
	out := make([]Error, 0, min(len(x)+len(y), n))
	for len(out) < n && (len(x) > 0 || len(y) > 0) {
		if len(y) == 0 || (len(x) > 0 && x[0].Line <= y[0].Line) {
			out, x = append(out, x[0]), x[1:]
		} else {
			out, y = append(out, y[0]), y[1:]
		}
	}
	return out
}
