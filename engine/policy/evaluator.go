package policy

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync/atomic"
	"time"

	"github.com/open-policy-agent/opa/v1/topdown"

	"github.com/chatlint/chatlint/engine/document"
	"github.com/chatlint/chatlint/engine/policy/yamlrule"
)

// DefaultRuleTimeout bounds the evaluation of one conversation or session,
// per WorkUnit of its work (Document.Work: messages or entries, a message's
// tool calls and content parts counted): packs are semi-trusted, and one
// pathological rule must not hang a CI job. Every command and the Beam job
// use it unless told otherwise.
const DefaultRuleTimeout = 5 * time.Second

// WorkUnit is how much of a document's work (messages or entries, tool
// calls, content parts) one rule timeout covers: a session of 3,000 entries is given three timeouts, as three
// records of 1,000 messages would be, while a record of any usual length is
// given one.
const WorkUnit = 1000

// budget is the time limit of a document of the given work (Document.Work).
func budget(timeout time.Duration, work int) time.Duration {
	return timeout * time.Duration(max(1, (work+WorkUnit-1)/WorkUnit))
}

// Evaluator evaluates documents one at a time for one worker. It reuses one
// cancellation flag and one timer across documents, where a plain Rego
// evaluation starts a goroutine per call to watch its context.
//
// A document's time limit is the rule timeout per WorkUnit of its work
// (budget), but its work is counted only if it outlasts one timeout:
// counting reads every message, about as long as a compiled rule takes
// over a record. The timer is armed for one timeout; when it runs out,
// the next check of the cancellation, on the evaluating goroutine
// (resettableCancel.Cancelled), counts the work and arms the timer again
// for the rest of the document's limit, or cancels.
type Evaluator struct {
	e       *Engine
	cancel  resettableCancel
	timer   *time.Timer
	timeout time.Duration
	limit   time.Duration // the time limit of the document being evaluated (extend, overtime)
	// doc is the document being evaluated, started when, and worked
	// whether limit counts its work yet.
	doc     *document.Document
	started time.Time
	worked  bool
	rel     yamlrule.Cache // the partner sets of the YAML rules' joins, reused from document to document
	rego    regoRun        // the Rego sets' queries, reused from document to document
	watch   memWatch       // this evaluator's entry under the memory watchdog
}

// NewEvaluator returns an Evaluator; use one per goroutine.
func (e *Engine) NewEvaluator() *Evaluator {
	ev := &Evaluator{e: e, timeout: e.timeout}
	ev.timer = time.AfterFunc(time.Hour, ev.cancel.expire)
	ev.timer.Stop()
	ev.cancel.overtime = ev.overtime
	ev.rego.extend = ev.extend
	return ev
}

// extend gives the document being evaluated the time limit of the work
// given when that is longer than its own, counted from now: OPA is given
// a document built whole where the YAML rules read one pruned for a gate,
// and its limit is the whole document's, as when it was built for OPA.
func (ev *Evaluator) extend(work int) {
	ev.worked = true // the whole document's work counts the pruned one's
	if l := budget(ev.timeout, work); l > ev.limit && ev.timer.Stop() {
		ev.limit = l
		ev.timer.Reset(l)
	}
}

// overtime is called, on the evaluating goroutine, once the timer ran out:
// it reports whether the document is past its limit. The first time, it
// counts the document's work, and a document whose work gives it longer
// than it has run gets the rest, the timer armed again.
func (ev *Evaluator) overtime() bool {
	if ev.doc == nil || ev.worked {
		return true
	}
	ev.worked = true
	if l := budget(ev.timeout, docWork(ev.doc)); l > ev.limit {
		ev.limit = l // also what a document past it is told
		if rest := l - time.Since(ev.started); rest > 0 {
			ev.timer.Reset(rest)
			return false
		}
	}
	return true
}

// Evaluate runs every active rule over one document. A document whose
// evaluation outlasts the time limit gives an error and no hits.
func (ev *Evaluator) Evaluate(ctx context.Context, doc *document.Document) ([]Hit, error) {
	hits, _, err := ev.evaluate(ctx, doc)
	ev.e.demote(doc.Profile, hits)
	return hits, err
}

func (ev *Evaluator) evaluate(ctx context.Context, doc *document.Document) ([]Hit, []Action, error) {
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	hits, acts, err, over := ev.run(ctx, doc, nil)
	if over {
		// Cancelled for memory, maybe for another document's rules: again,
		// alone among such retries, with a tracer that names the rule.
		guard.alone.Lock()
		defer guard.alone.Unlock()
		runtime.GC()
		tr := &ruleTracer{}
		if hits, acts, err, over = ev.run(ctx, doc, tr); over {
			return nil, nil, fmt.Errorf("rule %s used more than %d MiB of memory; the document was not checked", tr.name(), ev.e.memory>>20)
		}
	}
	return hits, acts, err
}

// run evaluates once; over reports that the memory watchdog stopped it.
func (ev *Evaluator) run(ctx context.Context, doc *document.Document, tracer topdown.QueryTracer) (hits []Hit, acts []Action, err error, over bool) {
	ev.cancel.reset()
	w := &ev.watch // the watchdog lets go of it before run returns
	w.cancel = &ev.cancel
	w.over.Store(false)
	watched := ev.e.hasRego && ev.e.regoScope.open(string(doc.Format), profileOf(doc.Profile)) // only OPA's evaluation can be stopped
	if watched {
		// The first such document compiles the Rego (Options.LazyRego):
		// outside the record's time and memory bounds, which are the
		// record's own. An error is the evaluation's to report.
		_, _ = ev.e.programFor(string(doc.Format), profileOf(doc.Profile))
		ev.rego.watch = w // watched from OPA's start (Engine.evaluate)
	}
	ev.doc, ev.started, ev.worked = doc, time.Now(), false
	ev.limit = ev.timeout
	ev.timer.Reset(ev.limit)
	hits, acts, err = ev.e.evaluateRecovered(ctx, doc, &ev.cancel, tracer, &ev.rel, &ev.rego)
	stopped := ev.timer.Stop()
	timedOut := !stopped && ev.cancel.Cancelled()
	if !stopped {
		ev.timer.Stop() // armed again by that check: no document is left to time
	}
	ev.doc = nil
	limit := ev.limit
	if watched {
		ev.rego.watch = nil
		guard.unwatch(w)
	}
	if w.over.Load() {
		return nil, nil, nil, true
	}
	if timedOut {
		if limit != ev.timeout {
			return nil, nil, fmt.Errorf("evaluating policies took longer than %s (%s per %d messages, entries, tool calls or content parts); the document was not checked", limit, ev.timeout, WorkUnit), false
		}
		return nil, nil, fmt.Errorf("evaluating policies took longer than %s; the document was not checked", ev.timeout), false
	}
	if err != nil && cancelled(err) {
		return nil, nil, errors.New("evaluating policies was cancelled"), false
	}
	return hits, acts, err, false
}

// cancelled reports a topdown cancellation error (apart, so that the
// pointer errors.As needs escapes only when there is an error).
func cancelled(err error) bool {
	var te *topdown.Error
	return errors.As(err, &te) && te.Code == topdown.CancelErr
}

// resettableCancel is a topdown.Cancel that can be armed again. The
// Evaluator's timer does not cancel: it marks the time run out (expire),
// and the next Cancelled, on the evaluating goroutine, asks overtime
// whether the document is past its limit.
type resettableCancel struct {
	flag     atomic.Bool
	expired  atomic.Bool
	overtime func() bool // nil: the time running out cancels
}

func (c *resettableCancel) Cancel() { c.flag.Store(true) }
func (c *resettableCancel) expire() { c.expired.Store(true) }
func (c *resettableCancel) Cancelled() bool {
	if c.expired.Load() {
		c.expired.Store(false)
		if c.overtime == nil || c.overtime() {
			c.flag.Store(true)
		}
	}
	return c.flag.Load()
}
func (c *resettableCancel) reset() { c.flag.Store(false); c.expired.Store(false) }
