package fix

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/chatlint/chatlint/cmd/chatlint/internal/cmdutil"
	"github.com/chatlint/chatlint/engine/atomicfile"
	"github.com/chatlint/chatlint/engine/document"
	"github.com/chatlint/chatlint/engine/fix"
	"github.com/chatlint/chatlint/engine/jsonl"
	"github.com/chatlint/chatlint/engine/lint"
	"github.com/chatlint/chatlint/engine/report"
	"github.com/chatlint/chatlint/engine/runner"
)

// fixer turns the runner's jobs into fixed records (on the workers) and
// writes them out file by file (in input order).
type fixer struct {
	ctx     context.Context
	s       cmdutil.IOStreams
	o       *fixOptions
	engines *fix.Stages
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
	fixed     *fix.Fixed // nil when the file is refused or there is nothing to fix
	note      string     // a line for stderr
	unfixed   bool
	policyErr bool
	end       bool           // the input's last job
	readErr   error          // with end: the input could not be read to its end
	inputs    []jsonl.Record // --dry-run: the records as read, for the diff
	first     []jsonl.Record // the job's first record as read (none for a job without records)
	// known says the job is a record of a known format; unrecognized is
	// the reader's word that the file's records fit none.
	known        bool
	unrecognized string
	brokenDoc    string // a .json document that is not one JSON value the reader could split
	tooLong      string // a line the reader skipped for its length: the file cannot be written whole
	notJSONL     string // the reader's word that the file is not JSON Lines at all
	dropNote     string // a line for stderr, unless the file is not written
	refused      error  // the format cannot be rewritten in its layout: the file is refused
}

// fileOut is the output file being written.
type fileOut struct {
	name    string
	out     *outFile // nil for --dry-run
	rejects *spool
	readErr error // the input could not be read to its end: nothing is written
	// known: some record is of a known format; unrecognized: the reader
	// found the file's records fit none; nonRecords: lines dropped as no
	// record before any record of a known format. A file with no record
	// of a known format and either of the others is not fixed at all.
	known        bool
	unrecognized string
	brokenDoc    string
	tooLong      string
	notJSONL     string
	nonRecords   int
	// layout and records: how the output is written (fixjson.go) and
	// how many records it has so far.
	layout    docLayout
	laidOut   bool
	records   int
	perRule   map[string]int // actions per rule, added to the run's once the file is done
	refused   error          // the file's format cannot be fixed in its layout: nothing is written
	unlock    func()         // --in-place: releases the input's lock
	documents int
	changed   int
	actions   int
	dropped   int
}

// newWork makes one worker's function, with a fix.Fixer of its own.
func (fx *fixer) newWork() func(runner.Job) fixed {
	w := fix.New(fx.engines, fix.Options{Document: docOptions(fx.o), MaxPasses: fx.o.MaxPasses})
	return func(j runner.Job) fixed { return fx.work(j, w) }
}

func (fx *fixer) work(j runner.Job, w *fix.Fixer) fixed {
	res := fixed{file: j.File, records: j.Records, end: j.End, readErr: j.Err}
	if fx.o.DryRun {
		res.inputs = j.Records
	}
	if len(j.Records) > 0 {
		res.first = j.Records[:1]
	}
	if j.Finding != nil {
		f := j.Finding
		// A finding the reader makes itself (an unrecognized format, a
		// line too long) comes without a unit: it belongs to its file all
		// the same, or the file's output would be cut in two.
		if res.file == "" {
			res.file = f.File
		}
		if f.Rule == lint.RuleUnrecognized || f.Rule == lint.RuleNotJSONL || f.Rule == lint.RuleLineTooLong || jsonl.IsJSONDocument(f.File) {
			// A .json document the reader could not split into records
			// (invalid JSON, too large) is not fixed either: what was
			// read of it must not stand for it. Nor is a file with a line
			// over --max-line-size: the reader skipped it without keeping
			// it, so an output would lack it.
			switch {
			case f.Rule == lint.RuleUnrecognized:
				res.unrecognized = f.Message
			case f.Rule == lint.RuleNotJSONL:
				res.notJSONL = f.Message
			case jsonl.IsJSONDocument(f.File):
				res.brokenDoc = f.Message
			default:
				res.tooLong = fmt.Sprintf("line %d is over --max-line-size; raise it to fix this file", f.Line)
			}
			res.note = fmt.Sprintf("%s:%d: %s %s: %s (nothing is written for this file)", report.EscapeControls(f.File), f.Line, f.Severity, f.Rule, report.Clean(f.Message))
		} else {
			res.note = fmt.Sprintf("%s:%d: %s %s: %s (left as it is)", report.EscapeControls(f.File), f.Line, f.Severity, f.Rule, report.Clean(f.Message))
		}
	}
	if len(j.Records) == 0 {
		return res
	}
	fr := w.Fix(fx.ctx, j.Unit)
	if !fr.Known {
		// A line before the file's format is known, or a record of a file
		// in no known format: no pack applies, but a line that is JSON and
		// no object is still no record (the Fixer drops it). Its note waits
		// until the file turns out not to be skipped; a line that is not
		// JSON says nothing, as the file is either skipped or passed
		// through.
		res.fixed, res.records = &fr, fr.Records
		res.dropNote = noteLines(fr.Notes, fix.NoteDropped)
		// A record detection stopped reading for its values
		// (record-too-dense) is written back as it is, and said now.
		res.note = noteLines(fr.Notes, fix.NoteLeft)
		res.unfixed = fr.Tally.Unfixed > 0
		return res
	}
	res.known = true
	if fr.Refused != nil {
		res.refused = fmt.Errorf("%s: not fixed: %w", j.File, fr.Refused)
		return res
	}
	res.fixed, res.records = &fr, fr.Records
	if fr.Left != nil {
		res.policyErr = fr.Tally.PolicyErrors > 0
		res.unfixed = fr.Tally.Unfixed > 0
		res.note = noteLines(fr.Notes, fix.NoteLeft)
		return res
	}
	res.note = noteLines(fr.Notes, fix.NoteDropped, fix.NoteNotJSON)
	return res
}

// noteLines are the stderr lines of the notes of the kinds given.
func noteLines(notes []fix.Note, kinds ...fix.NoteKind) string {
	var b strings.Builder
	for _, n := range notes {
		if slices.Contains(kinds, n.Kind) {
			fmt.Fprintf(&b, "\n%s:%d: %s %s: %s", report.EscapeControls(n.File), n.Line, n.Severity, n.Rule, report.EscapeControls(n.Message))
		}
	}
	return strings.TrimPrefix(b.String(), "\n")
}

func (fx *fixer) emit(res fixed) {
	if res.note != "" {
		fmt.Fprintln(fx.s.ErrOut, res.note) // its parts escaped as it was made (work)
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
	if res.refused != nil && c.refused == nil {
		c.refused = res.refused
	}
	c.known = c.known || res.known
	if res.unrecognized != "" {
		c.unrecognized = res.unrecognized
	}
	if res.dropNote != "" && c.unrecognized == "" {
		fmt.Fprintln(fx.s.ErrOut, res.dropNote)
	}
	if res.brokenDoc != "" {
		c.brokenDoc = res.brokenDoc
	}
	if res.tooLong != "" && c.tooLong == "" {
		c.tooLong = res.tooLong
	}
	if res.notJSONL != "" {
		c.notJSONL = res.notJSONL
	}
	fr := res.fixed
	if !c.known && fr != nil {
		c.nonRecords += len(fr.Rejects)
	}
	if c.out != nil {
		if len(res.first) > 0 {
			c.setLayout(res.first[0])
		}
		for i, r := range res.records {
			c.writeRecord(r, fr != nil && i < len(fr.Changed) && fr.Changed[i])
		}
	}
	if fr == nil {
		return
	}
	c.documents += fr.Tally.Documents
	if fr.Tally.Changed == 0 {
		return
	}
	c.changed++
	c.dropped += fr.Tally.Dropped
	if c.perRule == nil {
		c.perRule = map[string]int{}
	}
	for _, a := range fr.Tally.Actions {
		c.actions += a.N
		c.perRule[a.Rule] += a.N
	}
	line := 0
	if len(fr.Records) > 0 {
		line = fr.Records[0].Line
	}
	for _, r := range fr.Rejects {
		if !fx.o.DryRun {
			c.rejects.Write(fix.RejectLine(res.file, fr.ID, r)) // a failure shows when the rejects are appended
		}
		if line == 0 {
			line = r.Line
		}
	}
	if fx.o.DryRun {
		fx.printDiff(res.file, line, res.inputs, fr.Outcome)
	}
}

func (fx *fixer) printDiff(file string, line int, inputs []jsonl.Record, out *fix.Outcome) {
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
	fmt.Fprintf(fx.s.Out, "%s:%d: record %s: %s\n", report.EscapeControls(file), line, report.EscapeControls(out.ID), strings.Join(parts, ", "))
	fx.s.Out.Write(lineDiff(inputs, out))
}

// lineDiff shows a record (or a session's lines) before and after as JSON
// lines, as a diff does: "-" and the line as it was, "+" and the line as it
// is written. A line kept byte for byte in its place is not shown; a line
// that moved is shown as removed and added.
func lineDiff(inputs []jsonl.Record, out *fix.Outcome) []byte {
	kept := map[int]bool{} // source lines written unchanged, in order
	last := 0
	for i, r := range out.Records {
		if r.Line > last && !out.Changed[i] {
			kept[r.Line], last = true, r.Line
		}
	}
	var b bytes.Buffer
	for _, r := range inputs {
		if !kept[r.Line] {
			b.WriteByte('-')
			b.Write(compact(bytes.TrimRight(r.Data, "\r\n"))) // a .json record may span lines
			b.WriteByte('\n')
		}
	}
	for _, r := range out.Records {
		if !kept[r.Line] {
			b.WriteByte('+')
			b.Write(compact(r.Data))
			b.WriteByte('\n')
		}
	}
	return b.Bytes()
}

// finish completes the file being written: the rejects are appended beside
// it and synced, then the output is committed (for --in-place only when
// something changed, after a backup).
func (fx *fixer) finish() {
	c := fx.cur
	if c == nil {
		return
	}
	fx.cur = nil
	if c.unlock != nil {
		defer c.unlock()
	}
	if why := c.unwritable(); why != "" {
		// No pack knows these records (fix would only pass them through,
		// or drop the lines it can tell are no record and leave the rest,
		// and an exit 0 would say the file was fixed), or some line was
		// not read. It is left alone, and nothing of it counts as fixed.
		if c.out != nil {
			c.out.abort()
		}
		c.rejects.discard()
		fx.files = append(fx.files, c.name+": not written ("+why+")")
		fx.errs = append(fx.errs, fmt.Errorf("%s: not fixed, nothing written for it: %s", c.name, why))
		return
	}
	fx.documents += c.documents
	dest := fx.outputs[c.name]
	line := fmt.Sprintf("%s: %d of %d %s changed, %d %s", c.name, c.changed, c.documents, plural(c.documents, "record"), c.actions, plural(c.actions, "action"))
	if c.refused != nil {
		// A format fix cannot write in its own layout is left alone.
		if c.out != nil {
			c.out.abort()
		}
		c.rejects.discard()
		fx.errs = append(fx.errs, c.refused)
		fx.files = append(fx.files, c.name+": not written (its format cannot be fixed in its own layout)")
		return
	}
	if c.readErr != nil {
		// A truncated read must not replace or stand for the input.
		if c.out != nil {
			c.out.abort()
		}
		c.rejects.discard()
		fx.files = append(fx.files, c.name+": not written (it could not be read to its end)")
		return
	}
	rejected := false // rejects were appended beside the output
	if c.out != nil {
		if fx.o.InPlace && c.changed == 0 {
			c.out.abort()
			c.rejects.discard()
			fx.files = append(fx.files, line+"; unchanged")
			return
		}
		c.closeLayout()
		if fx.o.InPlace {
			c.out.check = func() error {
				if err := unchangedSince(c.name, fx.before[c.name]); err != nil {
					return err
				}
				if fx.o.IgnoreWriters {
					return nil
				}
				return atomicfile.RefuseWriters(c.name)
			}
		}
		// The rejects are durable before the file they were taken from is
		// replaced: a run killed between the two used to leave a fixed
		// file whose dropped pieces were in no rejects file, and a second
		// run found nothing to fix. Killed now, the next run fixes the
		// file again and appends its rejects a second time: a duplicate,
		// never a loss. When the file is not written after all, the
		// rejects are taken back out.
		undo := func() {}
		if rejected = !c.rejects.empty(); rejected {
			var err error
			if undo, err = c.rejects.appendTo(dest+jsonl.RejectsSuffix, inputPerm(c.name)); err != nil {
				c.out.abort()
				fx.errs = append(fx.errs, fmt.Errorf("%s: not written: its rejects could not be written: %v", c.name, err))
				return
			}
		}
		bak, err := c.out.commit(fx.o.InPlace)
		if err != nil {
			undo()
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
	if fx.perRule == nil {
		fx.perRule = map[string]int{}
	}
	for r, n := range c.perRule {
		fx.perRule[r] += n
	}
	switch {
	case fx.o.DryRun && c.dropped > 0:
		line += fmt.Sprintf(", %d dropped", c.dropped)
	case rejected:
		line += fmt.Sprintf(", %d dropped -> %s", c.dropped, dest+jsonl.RejectsSuffix)
	}
	fx.files = append(fx.files, line)
}

// unwritable says why the file is not to be written: a .json document
// that could not be read whole, a line the reader skipped for its length,
// or records of no known format; "" when
// some are of a known format (or the file has no JSON value at all: empty,
// or only lines that are not JSON, which fix passes through as it always
// did).
func (c *fileOut) unwritable() string {
	switch {
	case c.brokenDoc != "":
		return "it could not be read whole as a JSON document: " + c.brokenDoc
	case c.tooLong != "":
		return c.tooLong
	case c.notJSONL != "":
		return c.notJSONL
	case c.known:
		return ""
	case c.unrecognized != "":
		return "its records fit no known format; force one with --format"
	case c.nonRecords > 0:
		return "no line is a JSON object, so no record of a known format"
	}
	return ""
}

// open starts the output of an input; with -o DIR its folders are made.
func (fx *fixer) open(name string) *outFile {
	dest := fx.outputs[name]
	if fx.o.Output != "" && dest != fx.o.Output {
		os.MkdirAll(filepath.Dir(dest), 0o755) // an error shows when the file is written
	}
	perm := inputPerm(name)
	if fx.o.InPlace {
		unlock, err := LockInput(name)
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
	return document.Options{ToolCalls: o.ToolCalls, MaxValues: o.maxValues}
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
