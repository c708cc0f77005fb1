package runner

import (
	"sync"
	"time"

	"github.com/chatlint/chatlint/engine/jsonl"
)

// A batch is consecutive jobs handed to one worker at once: waking a worker,
// passing a job through two channels and the budget costs a few tens of
// microseconds of wall time on a busy 2-core machine, as much as checking a
// small record against one rule.
type batch struct {
	jobs []job
	// weight is the batch's share of the in-flight budget: the slab chunks
	// its records were copied into (whole: a chunk lives while any of its
	// records does, and no other batch's record is in it), the bytes of its
	// records that own theirs, and jobOverhead per job.
	weight int64
	// work is what the pace turns into time: the jobs' weight() (bytes
	// and overhead), whether their records are in the slab or not.
	work int64
}

// batchTime is how long a batch sized by its pace should take a worker:
// long enough that handing it over costs little beside it (a few µs), short
// enough that a costly record goes alone and the last batches of a run
// finish together.
const batchTime = 1 * time.Millisecond

// maxBatch bounds the jobs of a batch sized by its pace (results are
// gathered per batch before they are emitted).
const maxBatch = 1024

// batcher gathers the producer's jobs into batches, copying the records it
// borrows from the reader into a slab of the batch's own, and hands each
// batch to send once it is full.
type batcher struct {
	fixed int   // Options.Batch: jobs per batch; 0: sized by pace
	limit int64 // the heaviest batch: an eighth of the budget
	pace  *pace
	send  func(batch) bool
	ok    bool // send has not refused a batch

	cur    batch
	own    int64 // bytes of cur's records that were not copied into slab
	slab   jsonl.Slab
	copied int   // bytes of cur's records copied into slab
	next   int   // the chunk size for the next batch: what the last one copied, and a quarter
	target int64 // the work at which cur is full (pace), set when cur starts
	last   int   // the jobs of the last batch
	whole  bool  // cur holds a whole session: only its End job may join it
}

func newBatcher(fixed int, limit int64, p *pace, send func(batch) bool) *batcher {
	return &batcher{fixed: fixed, limit: limit, pace: p, send: send, ok: true}
}

// add appends a job to the current batch, and sends the batch when full.
// A whole session (a unit of a per-file format) goes alone, with its
// file's End job: batching sessions cost measurable CPU (see the
// performance log), and a session takes long enough that handing it over
// costs nothing beside it.
func (b *batcher) add(j job) {
	whole := len(j.unit.Records) > 0 && j.unit.Format.PerFile()
	if (b.whole && !j.end) || (whole && len(b.cur.jobs) > 0) {
		b.flush()
	}
	if len(b.cur.jobs) == 0 {
		n := b.fixed
		if b.fixed == 0 {
			b.target = b.pace.target()
			n = b.last + b.last/4 // as many as the last batch, and a quarter
		}
		b.cur.jobs = make([]job, 0, min(max(n, 1), maxBatch))
		b.slab.SetChunk(b.next)
	}
	if j.borrowed {
		for i, rec := range j.unit.Records {
			j.unit.Records[i] = b.slab.Copy(rec)
			b.copied += len(rec.Raw)
		}
		j.borrowed = false
	} else {
		for _, rec := range j.unit.Records {
			b.own += int64(max(len(rec.Raw), len(rec.Data)))
		}
	}
	b.cur.jobs = append(b.cur.jobs, j)
	b.cur.work += j.weight()
	b.cur.weight = b.slab.Held() + b.own + int64(len(b.cur.jobs))*jobOverhead
	b.whole = b.whole || whole
	if b.full() || (b.whole && j.end) {
		b.flush()
	}
}

// full reports whether the current batch is to be sent: at its count (a
// fixed size) or its time (by the pace; a job estimated to take longer
// than batchTime goes alone), or at the weight limit either way.
func (b *batcher) full() bool {
	if b.cur.weight >= b.limit {
		return true
	}
	if b.fixed > 0 {
		return len(b.cur.jobs) >= b.fixed
	}
	return b.cur.work >= b.target || len(b.cur.jobs) >= maxBatch
}

// waiting hands on the current batch if reading the next record may wait
// for more input (see producer.waiting).
func (b *batcher) waiting(wouldWait func() bool) {
	if len(b.cur.jobs) > 0 && wouldWait() {
		b.flush()
	}
}

// flush sends the current batch, if any, and starts the next one with a
// slab chunk of its own.
func (b *batcher) flush() {
	if len(b.cur.jobs) > 0 && b.ok {
		b.ok = b.send(b.cur)
	}
	if b.copied > 0 {
		b.next = b.copied + b.copied/4
	}
	b.last = len(b.cur.jobs)
	b.cur, b.own, b.copied, b.whole = batch{}, 0, 0, false
	b.slab.Reset()
}

// pace follows how long the workers take per unit of work (job.weight), so
// the batcher can size batches to take about batchTime each.
type pace struct {
	mu sync.Mutex
	// perWork is the nanoseconds per unit of work: the lower envelope of
	// the batches measured (0 before the first). A batch's wall time
	// counts the time its worker waited for a core; on a machine shared
	// with other work an average sized batches by that wait and made them
	// small where handing them over costs the most. It follows a faster
	// batch at once and a slower one by an eighth of the gap per batch, so
	// costlier records still shrink the batches within a few of them.
	perWork float64
}

// measured records that a batch of work units took d.
func (p *pace) measured(work int64, d time.Duration) {
	if work <= 0 {
		return
	}
	rate := float64(d) / float64(work)
	p.mu.Lock()
	if p.perWork == 0 || rate < p.perWork {
		p.perWork = rate
	} else {
		p.perWork += (rate - p.perWork) / 8
	}
	p.mu.Unlock()
}

// target is the work a batch should hold to take batchTime; 0 (one job a
// batch) until a batch was measured.
func (p *pace) target() int64 {
	p.mu.Lock()
	r := p.perWork
	p.mu.Unlock()
	if r <= 0 {
		return 0
	}
	return int64(float64(batchTime) / r)
}
