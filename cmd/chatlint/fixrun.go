package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/google/go-cmp/cmp"

	"github.com/chatlint/chatlint/engine/document"
	"github.com/chatlint/chatlint/engine/fix"
	"github.com/chatlint/chatlint/engine/jsonl"
	"github.com/chatlint/chatlint/engine/lint"
	"github.com/chatlint/chatlint/engine/policy"
	"github.com/chatlint/chatlint/engine/report"
	"github.com/chatlint/chatlint/engine/runner"
)

// fixer turns the runner's jobs into fixed records (on the workers) and
// writes them out file by file (in input order).
type fixer struct {
	ctx     context.Context
	s       streams
	o       *fixOptions
	engines *fixEngines
	outputs map[string]string
	before  map[string]fs.FileInfo // --in-place: each input's identity before the run

	cur          *fileOut
	errs         []error
	unfixed      int
	policyFailed bool
	files        []string // one summary line per file
	documents    int
	changed      int
	perRule      map[string]int
}

// fixed is what a worker made of one job.
type fixed struct {
	file      string
	records   []jsonl.Record
	outcome   *fix.Outcome // nil when nothing was evaluated
	note      string       // a line for stderr
	unfixed   bool
	policyErr bool
	end       bool  // the input's last job
	readErr   error // with end: the input could not be read to its end
}

// fileOut is the output file being written.
type fileOut struct {
	name      string
	out       *outFile // nil for --dry-run
	rejects   *spool
	unlock    func() // --in-place: releases the input's lock
	readErr   error  // the input could not be read to its end: nothing is written
	documents int
	changed   int
	actions   int
	dropped   int
}

// newWork makes one worker's function, with evaluators of its own.
func (fx *fixer) newWork() func(runner.Job) fixed {
	evaluators := fx.engines.workerEvaluators()
	return func(j runner.Job) fixed { return fx.work(j, evaluators) }
}

func (fx *fixer) work(j runner.Job, evaluators func(document.Format) []*policy.Evaluator) fixed {
	res := fixed{file: j.File, records: j.Records, end: j.End, readErr: j.Err}
	if j.Finding != nil {
		f := j.Finding
		// A finding the reader makes itself (an unrecognized format, a
		// line too long) comes without a unit: it belongs to its file all
		// the same, or the file's output would be cut in two.
		if res.file == "" {
			res.file = f.File
		}
		res.note = fmt.Sprintf("%s:%d: %s %s: %s (left as it is)", report.EscapeControls(f.File), f.Line, f.Severity, f.Rule, report.Clean(f.Message))
	}
	if j.Format == "" || len(j.Records) == 0 {
		return res
	}
	out, err := fix.Run(fx.ctx, evaluators(j.Format), j.Records, fix.Options{Format: j.Format, File: j.File, Document: docOptions(fx.o),
		MaxPasses: fx.o.MaxPasses, Messages: fx.o.DryRun})
	if err != nil {
		var pe *fix.PolicyError
		res.policyErr = errors.As(err, &pe)
		res.unfixed = !res.policyErr
		rule := "fix"
		if res.policyErr {
			rule = lint.RulePolicyError
		}
		res.note = fmt.Sprintf("%s:%d: error %s: %s", report.EscapeControls(j.File), j.Records[0].Line, rule, report.EscapeControls(err.Error()))
		return res
	}
	res.outcome = out
	res.records = out.Records
	for _, l := range out.Invalid {
		res.note += fmt.Sprintf("%s:%d: warning %s: not a JSON object; left as it is (chatlint repair drops such lines)\n", report.EscapeControls(j.File), l, lint.RuleSyntax)
	}
	res.note = strings.TrimSuffix(res.note, "\n")
	return res
}

func (fx *fixer) emit(res fixed) {
	if res.note != "" {
		fmt.Fprintln(fx.s.Err, res.note) // its parts escaped as it was made (work)
	}
	fx.unfixed += b2i(res.unfixed)
	fx.policyFailed = fx.policyFailed || res.policyErr
	if fx.cur == nil || fx.cur.name != res.file {
		fx.finish()
		if res.end && res.readErr != nil { // could not be opened: nothing to write
			return
		}
		fx.cur = &fileOut{name: res.file, rejects: newSpool(fx.outputs[res.file])}
		if !fx.o.DryRun {
			fx.cur.out = fx.open(res.file)
		}
	}
	if res.end {
		fx.cur.readErr = res.readErr
		fx.finish()
		return
	}
	c := fx.cur
	if c.out != nil {
		for _, r := range res.records {
			c.out.write(r.Data)
			c.out.writeString(r.End)
		}
	}
	out := res.outcome
	if out == nil {
		if res.unfixed || res.policyErr {
			c.documents++
		}
		return
	}
	c.documents++
	if !out.AnyChange() {
		return
	}
	c.changed++
	c.actions += len(out.Applied)
	c.dropped += len(out.Rejects)
	if fx.perRule == nil {
		fx.perRule = map[string]int{}
	}
	for _, a := range out.Applied {
		fx.perRule[a.Rule]++
	}
	line := 0
	if len(out.Records) > 0 {
		line = out.Records[0].Line
	}
	for _, r := range out.Rejects {
		if !fx.o.DryRun {
			c.rejects.Write(fix.RejectLine(res.file, out.ID, r)) // a failure shows when the rejects are appended
		}
		if line == 0 {
			line = r.Line
		}
	}
	if fx.o.DryRun {
		fx.printDiff(res.file, line, out)
	}
}

func (fx *fixer) printDiff(file string, line int, out *fix.Outcome) {
	counts := map[string]int{}
	var rules []string
	for _, a := range out.Applied {
		if counts[a.Rule] == 0 {
			rules = append(rules, a.Rule)
		}
		counts[a.Rule]++
	}
	slices.Sort(rules)
	parts := make([]string, len(rules))
	for i, r := range rules {
		parts[i] = fmt.Sprintf("%s (%d)", r, counts[r])
	}
	fmt.Fprintf(fx.s.Out, "%s:%d: record %s: %s\n", file, line, out.ID, strings.Join(parts, ", "))
	fmt.Fprintf(fx.s.Out, "messages (-before +after):\n%s\n", cmp.Diff(out.Before, out.After))
}

// finish completes the file being written: the output is committed (for
// --in-place only when something changed, after a backup), then the
// rejects are appended beside it.
func (fx *fixer) finish() {
	c := fx.cur
	if c == nil {
		return
	}
	fx.cur = nil
	if c.unlock != nil {
		defer c.unlock()
	}
	fx.documents += c.documents
	dest := fx.outputs[c.name]
	line := fmt.Sprintf("%s: %d of %d %s changed, %d %s", c.name, c.changed, c.documents, plural(c.documents, "record"), c.actions, plural(c.actions, "action"))
	if c.readErr != nil {
		// A truncated read must not replace or stand for the input.
		if c.out != nil {
			c.out.abort()
		}
		c.rejects.discard()
		fx.files = append(fx.files, c.name+": not written (it could not be read to its end)")
		return
	}
	if c.out != nil {
		if fx.o.InPlace && c.changed == 0 {
			c.out.abort()
			c.rejects.discard()
			fx.files = append(fx.files, line+"; unchanged")
			return
		}
		if fx.o.InPlace {
			c.out.check = func() error { return unchangedSince(c.name, fx.before[c.name]) }
		}
		bak, err := c.out.commit(fx.o.InPlace)
		if err != nil {
			c.rejects.discard()
			fx.errs = append(fx.errs, fmt.Errorf("%s: not written: %v", c.name, err))
			return
		}
		if !fx.o.InPlace {
			line += " -> " + dest
		}
		if bak != "" {
			line += ", backup " + bak
		}
	}
	fx.changed += c.changed // only what was written counts as fixed
	switch {
	case fx.o.DryRun && c.dropped > 0:
		line += fmt.Sprintf(", %d dropped", c.dropped)
	case !c.rejects.empty():
		path := dest + jsonl.RejectsSuffix
		if err := c.rejects.appendTo(path, inputPerm(c.name)); err != nil {
			fx.errs = append(fx.errs, fmt.Errorf("%s: rejects not written: %v", c.name, err))
		}
		line += fmt.Sprintf(", %d dropped -> %s", c.dropped, path)
	}
	fx.files = append(fx.files, line)
}

// open starts the output of an input; with -o DIR its folders are made.
func (fx *fixer) open(name string) *outFile {
	dest := fx.outputs[name]
	if fx.o.Output != "" && dest != fx.o.Output {
		os.MkdirAll(filepath.Dir(dest), 0o755) // an error shows when the file is written
	}
	perm := inputPerm(name)
	if fx.o.InPlace {
		unlock, err := lockInput(name)
		if err != nil {
			return &outFile{path: dest, err: err}
		}
		fx.cur.unlock = unlock
	}
	return openOut(dest, perm)
}

// summary prints a line per file, the totals and the actions per rule.
func (fx *fixer) summary(tot runner.Totals) {
	for _, l := range fx.files {
		fmt.Fprintln(fx.s.Out, report.EscapeControls(l))
	}
	verb := "fixed"
	if fx.o.DryRun {
		verb = "would fix"
	}
	actions := 0
	rules := make([]string, 0, len(fx.perRule))
	for r, n := range fx.perRule {
		rules = append(rules, r)
		actions += n
	}
	slices.Sort(rules)
	fmt.Fprintf(fx.s.Out, "%s %d of %d %s (%d %s, %d %s, %d %s)\n", verb, fx.changed, fx.documents, plural(fx.documents, "record"),
		tot.Files, plural(tot.Files, "file"), tot.Records, plural(tot.Records, "line"), actions, plural(actions, "action"))
	for _, r := range rules {
		fmt.Fprintf(fx.s.Out, "  %-28s %s\n", r, strconv.Itoa(fx.perRule[r]))
	}
}

func docOptions(o *fixOptions) document.Options {
	return document.Options{ToolCalls: o.ToolCalls}
}

func plural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
