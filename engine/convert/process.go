package convert

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/chatlint/chatlint/engine/document"
	"github.com/chatlint/chatlint/engine/jsonl"
	"github.com/chatlint/chatlint/engine/jsonv"
)

// outcome is what one session file gives: its report lines and, unless it
// produced no record or failed validation, one output line.
type outcome struct {
	session  Session
	scenario string
	findings []Finding
	invalid  *SessionError // validation failed: the reference aborts the run
	readErr  error         // the file could not be read
	record   []byte        // the output line, "\n" included; nil when none
	group    string        // date or scenario the record is filed under
	date     string
	usage    Usage
	bytes    int64
	lines    int  // lines that are not blank
	end      bool // the runner's last job of the file (see Converter.Run)
}

// worker holds one goroutine's state.
type worker struct {
	opts    *Options
	cleaner *cleaner   // nil when no cleanup pack is on
	eval    *evaluator // nil when integrity analysis is off
}

// process converts the session of one file from its lines, as the runner
// read them (every line, blank ones too; none for an empty file).
func (w *worker) process(ctx context.Context, index int, s Session, lines []jsonl.Record) (o outcome) {
	o.session, o.scenario = s, scenarioName(s.Path)
	for _, l := range lines {
		o.bytes += int64(len(l.Raw))
	}
	r := readLines(lines)
	o.lines = r.lines
	if r.format != "" && r.format != document.ProxyLog {
		// check reads this file as another format: one line saying so, not
		// one "not a log entry" per line.
		o.findings = append(o.findings, Finding{Error: true, Rule: "format-mismatch",
			Message: "not a proxy log: check reads this file as " + string(r.format) + "; convert reads proxy-log files (see chatlint convert --to openai for the other formats)"})
		return o
	}
	entries, skipped := r.entries, r.skipped
	for _, sk := range skipped {
		o.findings = append(o.findings, Finding{Rule: "log-entry-skipped", Message: sk.String(), Line: sk.Line})
	}
	if w.cleaner != nil {
		kept := entries[:0]
		for _, e := range entries {
			c, drop, err := w.cleaner.clean(ctx, e, s.Path)
			if err != nil {
				o.readErr = err
				return o
			}
			if !drop {
				kept = append(kept, c)
			}
		}
		entries = kept
	}
	if len(entries) == 0 {
		if w.eval != nil {
			o.findings = append(o.findings, Finding{Error: true, Rule: "record-missing", Message: "No conversation record produced for session file"})
		}
		return o
	}
	kept, trunc, err := validateSession(entries, s.Path)
	if err != nil {
		if !errors.As(err, &o.invalid) {
			o.readErr = err
		}
		return o
	}
	raw := squash(kept)
	written := raw
	if w.opts.JSONToolCalls {
		written = &Record{Messages: inlineToolCalls(raw.Messages), Tools: raw.Tools}
	}
	o.date = s.DirDate
	if o.date == "" {
		o.date = entries[0].Time.Date()
	}
	o.group = o.date
	if w.opts.GroupBy == GroupScenario && !w.opts.SingleFile {
		o.group = o.scenario
	}
	o.usage = countUsage(raw, o.date, o.scenario)
	if w.eval != nil {
		lines, err := w.integrity(ctx, s.Path, raw, written, entries, trunc)
		if err != nil {
			o.readErr = err
			return o
		}
		o.findings = append(o.findings, lines...)
	} else if trunc != nil {
		o.findings = append(o.findings, Finding{Rule: "trailing-short-entry", Message: trunc.String()})
	}
	v := written.Value()
	if w.opts.Anonymize {
		var r io.Reader
		if w.opts.Rand != nil {
			r = w.opts.Rand(index)
		}
		newAnonymizer(r).scrub(v)
	}
	o.record = append(jsonv.Marshal(v, jsonv.Python), '\n')
	return o
}

// integrity evaluates the integrity pack on the session and words its
// findings as the reference's report lines.
func (w *worker) integrity(ctx context.Context, file string, raw, written *Record, entries []*Entry, trunc *Truncation) ([]Finding, error) {
	var hits []hit
	if w.opts.JSONToolCalls {
		hs, err := w.eval.record(ctx, written, file, "inline")
		if err != nil {
			return nil, err
		}
		for _, h := range hs {
			if !rawRules[h.Rule] {
				hits = append(hits, h)
			}
		}
		if hs, err = w.eval.record(ctx, raw, file, "structured"); err != nil {
			return nil, err
		}
		for _, h := range hs {
			if rawRules[h.Rule] {
				hits = append(hits, h)
			}
		}
	} else {
		hs, err := w.eval.record(ctx, raw, file, "structured")
		if err != nil {
			return nil, err
		}
		hits = hs
	}
	var traces [][]string
	if len(entries) > 1 || slices.ContainsFunc(entries, func(e *Entry) bool { return e.Status != 0 }) {
		hs, ts, err := w.eval.session(ctx, entries, file)
		if err != nil {
			return nil, err
		}
		hits, traces = append(hits, hs...), ts
	}
	last := entries[len(entries)-1].Line
	if trunc != nil {
		last = entries[trunc.Kept-1].Line
	}
	mp := &mapping{written: written, raw: raw, entries: entries, traces: traces, trunc: trunc, line: last}
	lines := reportLines(mp, hits)
	if trunc != nil && !containsRule(lines, "trailing-short-entry") {
		return nil, fmt.Errorf("%s: internal: the session was truncated but the integrity pack did not report it", file)
	}
	return lines, nil
}

func containsRule(fs []Finding, rule string) bool {
	for _, f := range fs {
		if f.Rule == rule {
			return true
		}
	}
	return false
}
