package contract

import (
	"context"
	"fmt"
	"hash/maphash"
	"io"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/chatlint/chatlint/engine/internal/ordered"
	"github.com/chatlint/chatlint/engine/internal/py"
	"github.com/chatlint/chatlint/engine/lines"
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
	lines, bytes atomic.Int64
}

// Read returns the lines and bytes read so far.
func (p *Progress) Read() (lines, bytes int64) { return p.lines.Load(), p.bytes.Load() }

// Chunks group lines so that a worker's hand-off costs little per line; they
// stay small enough that the chunks in flight hold a few megabytes.
const (
	chunkLines = 256
	chunkBytes = 512 << 10
)

// chunk is a run of consecutive lines, copied out of the reader's buffer.
type chunk struct {
	first int // line number of the first line
	data  []byte
	ends  []int // end offset in data of each line
	out   []verdict
	err   error
}

var chunkPool = sync.Pool{New: func() any { return new(chunk) }}

// Validate reads r line by line and checks every line against the contract.
// Lines are checked in parallel and their verdicts consumed in input order;
// memory holds the chunks in flight plus the set of conversation ids and
// user ids seen. A read error stops the run and is returned.
//
// Lines go to the workers in chunks rather than one by one, as
// engine/runner hands out records: the report needs a verdict for every
// line, blank ones included, and chunks keep the hand-off cheap for records
// of a few hundred bytes.
func (e *Engine) Validate(ctx context.Context, r io.Reader, opts Options) (*Report, error) {
	workers := opts.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	a := newAccount(opts)
	var err error
	readErr := ordered.Run(ctx, workers, workers*4,
		func(ctx context.Context, send func(*chunk) bool) error {
			return produce(ctx, r, send, opts.Progress)
		},
		func() func(context.Context, *chunk) *chunk {
			ev := e.newEvaluator(opts.InputPath)
			return func(ctx context.Context, c *chunk) *chunk {
				e.work(ctx, ev, c, opts.Snapshot != nil)
				return c
			}
		},
		func(c *chunk) bool {
			err = a.add(c)
			c.out = c.out[:0]
			chunkPool.Put(c)
			return err == nil
		})
	// The consumer's own error first: when it stopped the run, the reader
	// only saw the cancellation.
	if err != nil {
		return nil, err
	}
	if readErr != nil {
		return nil, readErr
	}
	return a.report(), nil
}

// produce splits r into chunks and sends them in order.
func produce(ctx context.Context, r io.Reader, send func(*chunk) bool, progress *Progress) error {
	lr := lines.NewReader(r)
	n := 0
	c := newChunk(1)
	flush := func() error {
		if progress != nil {
			progress.lines.Add(int64(len(c.ends)))
			progress.bytes.Add(int64(len(c.data) + len(c.ends))) // terminators approximated as one byte
		}
		if !send(c) {
			return ctx.Err() // the run stopped: send fails only then
		}
		c = newChunk(n + 1)
		return nil
	}
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		line, err := lr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return fmt.Errorf("reading line %d: %w", n+1, err)
		}
		n++
		c.data = append(c.data, line...)
		c.ends = append(c.ends, len(c.data))
		if len(c.ends) >= chunkLines || len(c.data) >= chunkBytes {
			if err := flush(); err != nil {
				return err
			}
		}
	}
	if len(c.ends) > 0 {
		return flush()
	}
	return nil
}

func newChunk(first int) *chunk {
	c := chunkPool.Get().(*chunk)
	c.first, c.err = first, nil
	c.data, c.ends = c.data[:0], c.ends[:0]
	if cap(c.data) > 4*chunkBytes { // one huge line must not pin its buffer
		c.data = nil
	}
	return c
}

// work decides every line of c.
func (e *Engine) work(ctx context.Context, ev *evaluator, c *chunk, snapshot bool) {
	start := 0
	for i, end := range c.ends {
		v, err := ev.checkLine(ctx, c.first+i, c.data[start:end], snapshot)
		if err != nil {
			c.err = err
			return
		}
		c.out = append(c.out, v)
		start = end
	}
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

func (a *account) add(c *chunk) error {
	if c.err != nil {
		return c.err
	}
	for i, v := range c.out {
		n := c.first + i
		a.rep.TotalLines++
		if v.blank {
			continue
		}
		a.rep.NonEmptyLines++
		if v.code != "" {
			a.error(n, v.code, v.msg)
			continue
		}
		// A duplicate is judged against valid records only: a line that
		// failed the contract does not reserve its id.
		id := a.hash(v.id)
		if first, dup := a.firstLine[id]; dup {
			a.rep.DuplicateIDs++
			a.error(n, CodeDuplicateID, fmt.Sprintf("Duplicate conversation_id '%s' in dataset (first seen on line %d).", v.id, first))
			continue
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
