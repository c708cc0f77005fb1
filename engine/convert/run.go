package convert

import (
	"context"
	"fmt"
	"math"

	"github.com/chatlint/chatlint/engine/document"
	"github.com/chatlint/chatlint/engine/jsonl"
	"github.com/chatlint/chatlint/engine/runner"
)

// each reads the session files through runner.Each, as check reads its
// inputs, converts each session in the pool's workers and hands the
// outcomes to handle in discovery order, until handle returns false.
//
// The runner reads every file as the proxy-log format (convert reads
// nothing else; a file of another format is one format-mismatch line) with
// the reference's line rules: universal newlines, blank lines handed on
// (they count in line numbers), no bound on a line (Python reads a line of
// any length). A per-file format makes each file one job holding all its
// lines; the last job of each file (End) says whether the file was read to
// its end. The in-flight budget bounds the bytes of the files being
// converted, so memory stays flat however many sessions there are.
func (c *Converter) each(ctx context.Context, workers int, sessions []Session, cleanup cleanupEngines, ieng *integrityEngine, handle func(outcome) bool) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	o := &c.Opts
	inputs := make([]runner.Input, len(sessions))
	index := make(map[string]int, len(sessions))
	for i, s := range sessions {
		inputs[i] = runner.Input{Name: s.Path, Path: s.Path}
		index[s.Path] = i
	}
	run := &runner.Runner{Opts: runner.Options{
		Format:      document.ProxyLog,
		Workers:     workers,
		MaxLineSize: math.MaxInt,
		Split:       jsonl.SplitUniversal,
		EveryLine:   true,
	}}
	// pending is the outcome of the file being read, held until its End
	// job says the file was read whole: a file that failed midway is
	// unreadable, as when it was read at once.
	var pending *outcome
	stopped := false
	runner.Each(ctx, run, inputs,
		func() func(runner.Job) outcome {
			w := &worker{opts: o, cleaner: cleanup.cleaner()}
			if ieng != nil {
				w.eval = ieng.evaluator()
			}
			return func(j runner.Job) outcome {
				i := index[j.File]
				switch {
				case j.End:
					c.sessions.Add(1)
					if j.Err != nil {
						return outcome{session: sessions[i], readErr: j.Err, end: true}
					}
					// An empty file has no job but this one.
					oc := w.process(ctx, i, sessions[i], nil)
					oc.end = true
					return oc
				case j.Finding != nil: // the reader's own; none is expected without a line bound
					return outcome{session: sessions[i], readErr: fmt.Errorf("%s:%d: %s", j.File, j.Finding.Line, j.Finding.Message)}
				}
				oc := w.process(ctx, i, sessions[i], j.Records)
				c.bytes.Add(oc.bytes)
				return oc
			}
		},
		func(oc outcome) {
			if stopped {
				return
			}
			if !oc.end {
				if pending == nil || pending.readErr == nil {
					pending = &oc
				}
				return
			}
			if pending != nil && oc.readErr == nil {
				oc = *pending
			}
			pending = nil
			if !handle(oc) {
				stopped = true
				cancel()
			}
		})
}
