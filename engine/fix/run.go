package fix

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/chatlint/chatlint/engine/astjson"
	"github.com/chatlint/chatlint/engine/document"
	"github.com/chatlint/chatlint/engine/jsonl"
	"github.com/chatlint/chatlint/engine/policy"
)

// DefaultMaxPasses bounds the passes over one record: rules may need
// several (a dropped call leaves its result an orphan), but a pack whose
// rules undo each other must not loop for ever.
const DefaultMaxPasses = 10

// Options configure Run.
type Options struct {
	Format    document.Format
	File      string
	Document  document.Options
	MaxPasses int // 0 means DefaultMaxPasses
}

// Outcome is what the passes made of one record or session.
type Outcome struct {
	// Records are the output records; for a source record Line is its line
	// in the input, 0 for a record an action inserted. Changed[i] says
	// whether Records[i] differs from its source bytes.
	Records []jsonl.Record
	Changed []bool
	// ID is the record's (or session's) id, as findings name it.
	ID string
	// Rejects hold source lines (0 for a piece of an inserted record).
	Rejects []Reject
	Applied []policy.Action
	Passes  int
	// Invalid lists the lines that are not JSON: they are kept as they are
	// (repair is what drops them). Lines that are JSON but not objects are
	// dropped (see OpDropLine).
	Invalid []int

	inputs []int // the source lines, in order
	// builds and evals count the documents built and the evaluations run,
	// for the tests that hold them independent of a session's length.
	builds, evals int
}

// AnyChange reports whether the output differs from the input: a record
// changed, dropped, inserted or moved.
func (o *Outcome) AnyChange() bool {
	if len(o.inputs) != len(o.Records) || slices.Contains(o.Changed, true) {
		return true
	}
	for i, r := range o.Records {
		if r.Line != o.inputs[i] {
			return true
		}
	}
	return false
}

// PassError is a record whose rules still asked for changes after the last
// pass allowed.
type PassError struct {
	Passes int
	Rules  []string
}

func (e *PassError) Error() string {
	return fmt.Sprintf("still changing after %d passes (rules still firing: %s); the record was left as it was", e.Passes, strings.Join(e.Rules, ", "))
}

// PolicyError is a rule that failed while evaluating the document.
type PolicyError struct{ Err error }

func (e *PolicyError) Error() string { return e.Err.Error() }
func (e *PolicyError) Unwrap() error { return e.Err }

// Run evaluates the rules over the document of recs, applies their
// actions, builds the document again and repeats until no rule asks for
// anything. recs are the records of one document: one record, or the lines
// of a session file. Several evaluators (packs) run in stages, in order:
// each until it asks for nothing, then the next, and again from the first
// until none asks for anything; a conflict can only arise within a pack.
// MaxPasses bounds the passes that change something, over all packs. On an
// error (a *KeptError when a rule asked to keep the record) the records are
// to be kept as they were; an *UnfixableError means the format cannot be
// rewritten in its layout, and the file is to be refused whole. Lines that
// are JSON but not objects are dropped before any pack runs (OpDropLine);
// with no evaluators that is all Run does.
func Run(ctx context.Context, evs []*policy.Evaluator, recs []jsonl.Record, opts Options) (*Outcome, error) {
	if err := unfixable(opts.Format, recs, opts.Document.MaxValues); err != nil {
		return nil, err
	}
	st := &passes{opts: opts, max: opts.MaxPasses, built: -1}
	if st.max <= 0 {
		st.max = DefaultMaxPasses
	}
	inputs := make([]int, len(recs))
	for i, r := range recs {
		inputs[i] = r.Line
	}
	st.out = &Outcome{inputs: inputs}
	recs, st.out.Rejects, st.out.Applied = dropNonObjects(recs)
	// Records are numbered 1..n for the builder in every pass, so inserted
	// lines have numbers too; src maps them back to the source lines.
	st.cur = slices.Clone(recs)
	st.src = make([]int, len(recs))
	st.changed = make([]bool, len(recs))
	for i, r := range recs {
		st.src[i] = r.Line
	}
	// settled[k] is the version of the records on which stage k last asked
	// for nothing: evaluated again on the same records it would ask for
	// nothing again, so it is not.
	settled := make([]int, len(evs))
	for k := range settled {
		settled[k] = -1
	}
	for round := 0; ; round++ {
		changed := false
		for k, ev := range evs {
			if round > 0 && len(evs) == 1 {
				break
			}
			if settled[k] == st.version {
				continue
			}
			n, err := st.settle(ctx, ev, round == 0 && k == 0)
			if err != nil {
				return nil, err
			}
			changed = changed || n > 0
			settled[k] = st.version
		}
		if !changed || len(evs) == 1 || st.doc == nil {
			break
		}
	}
	if st.out.ID == "" && len(st.out.Rejects) > 0 {
		// Only lines that are no record: name the first, as check would.
		st.out.ID = fmt.Sprintf("%s:%d", opts.File, st.out.Rejects[0].Line)
	}
	for i := range st.cur {
		st.cur[i].Line = st.src[i]
	}
	st.out.Records, st.out.Changed = st.cur, st.changed
	return st.out, nil
}

// passes is the state of Run: the records as they stand and where each
// came from.
type passes struct {
	opts Options
	max  int
	n    int // passes that changed something
	cur  []jsonl.Record
	// decoded holds, for a session, the decoded value of each record of
	// cur that the last build decoded and no pass has changed since (nil:
	// none): a pass that moves a few lines of a long session leaves the
	// others' bytes as they were, and the next build reuses their values.
	decoded []ast.Object
	src     []int
	changed []bool
	doc     *document.Document // the document of cur, when built
	out     *Outcome
	// version counts the passes that changed cur; built is the version
	// doc was built from (-1: none yet). A stage that follows one which
	// asked for nothing reads the same document, so it is not built again:
	// building a long session's document costs as much as a pack's rules.
	version int
	built   int
	// over is set when a document read its record whole and that record
	// was over the bound on values (build): what the passes made of it is
	// dropped, and the record left as it was.
	over *TooDenseError
}

// settle runs one pack until it asks for nothing and returns how many
// passes changed something.
func (st *passes) settle(ctx context.Context, ev *policy.Evaluator, first bool) (int, error) {
	applied := 0
	for {
		if st.built != st.version {
			renumber(st.cur, st.src, st.opts.Format)
			var invalid []int
			var unread error
			st.doc, invalid, unread = build(st.cur, st.opts, &st.decoded, &st.over)
			st.out.builds++
			st.built = st.version
			var dense *TooDenseError
			if errors.As(unread, &dense) {
				return applied, dense // left as it is: every record of it
			}
			if first && applied == 0 {
				if unread != nil {
					return 0, unread // not read as the format reads it: left as it is
				}
				for _, i := range invalid {
					st.out.Invalid = append(st.out.Invalid, st.src[i])
				}
				if st.doc != nil {
					st.out.ID = st.doc.ID
				}
			}
		}
		doc := st.doc
		if doc == nil {
			return applied, nil
		}
		st.out.evals++
		_, acts, err := ev.EvaluateActions(ctx, doc)
		if st.over != nil {
			return applied, st.over
		}
		if err != nil {
			return applied, &PolicyError{Err: err}
		}
		if len(acts) == 0 {
			return applied, nil
		}
		res, err := Apply(doc, st.cur, acts)
		if st.over != nil {
			return applied, st.over
		}
		if err != nil {
			return applied, err
		}
		if len(res.Applied) == 0 {
			return applied, nil // the rules ask only for what is already there
		}
		if st.n == st.max {
			var rules []string
			for _, a := range res.Applied {
				if !slices.Contains(rules, a.Rule) {
					rules = append(rules, a.Rule)
				}
			}
			slices.Sort(rules)
			return applied, &PassError{Passes: st.max, Rules: rules}
		}
		st.n++
		applied++
		st.out.Passes = st.n
		lineOf := make(map[int]int, len(st.cur))
		for i, r := range st.cur {
			lineOf[r.Line] = st.src[i]
		}
		for _, r := range res.Rejects {
			r.Line = lineOf[r.Line]
			st.out.Rejects = append(st.out.Rejects, r)
		}
		st.out.Applied = append(st.out.Applied, res.Applied...)
		nextSrc := make([]int, len(res.Records))
		nextChanged := make([]bool, len(res.Records))
		var nextDecoded []ast.Object
		if st.decoded != nil {
			nextDecoded = make([]ast.Object, len(res.Records))
		}
		for i, s := range res.Source {
			if s >= 0 {
				nextSrc[i], nextChanged[i] = st.src[s], st.changed[s] || res.Changed[i]
				if nextDecoded != nil && !res.Changed[i] {
					nextDecoded[i] = st.decoded[s] // the same bytes
				}
			} else {
				nextChanged[i] = true
			}
		}
		st.cur, st.src, st.changed, st.decoded = res.Records, nextSrc, nextChanged, nextDecoded
		st.version++
	}
}

// renumber numbers the records for the builder: a record keeps its source
// line (so its document and findings name it), and the lines of a session
// are numbered in order, inserted ones included.
func renumber(recs []jsonl.Record, src []int, f document.Format) {
	for i := range recs {
		recs[i].Line = i + 1
		if !f.PerFile() && src[i] > 0 {
			recs[i].Line = src[i]
		}
	}
}

// build normalizes the records into their document; records that are not
// JSON objects are skipped (they are written back as they are) and their
// indexes returned. A record the format's reader cannot read (the record of
// a per-record format, the first object of a session; Adapter.Unread) is
// unread: fix leaves what it does not understand as it is, as check reports
// it (format-mismatch) rather than checking it.
//
// For a session, *decoded holds the values of records decoded before, nil
// where a record must be decoded; build fills it with those it decodes.
//
// A record over opts.Document.MaxValues is a *TooDenseError, and so is one
// whose projection was under it but whole decode is not, when the document
// reads it whole: that one is set in *over when it happens.
func build(recs []jsonl.Record, opts Options, decoded *[]ast.Object, over **TooDenseError) (*document.Document, []int, error) {
	b := document.NewBuilder(opts.Format, opts.File, opts.Document)
	ad := document.Lookup(opts.Format)
	// Only what the rules and the applier read is built (Options.Fields);
	// the applier reads a record's whole document (Document.Messages),
	// rebuilt from the record decoded whole.
	proj := document.Projection(opts.Format, opts.Document)
	var reuse []ast.Object
	var slabs *astjson.Slabs
	if opts.Format.PerFile() {
		if len(*decoded) != len(recs) {
			*decoded = make([]ast.Object, len(recs))
		}
		reuse = *decoded
		// A session's lines live as long as its document, and a line
		// decoded again (after a pass changed it) replaces its old value:
		// their terms are carved from blocks they share (astjson.Slabs).
		slabs = astjson.NewSlabs(document.Lookup(opts.Format).RepeatsIDs)
	}
	var doc *document.Document
	var invalid []int
	asked := false
	for i, r := range recs {
		if !astjson.OpensObject(r.Data) {
			invalid = append(invalid, i)
			continue
		}
		var obj ast.Object
		if reuse != nil {
			obj = reuse[i]
		}
		if obj == nil {
			v, err := astjson.DecodeProjectedIn(r.Data, proj, slabs, opts.Document.MaxValues)
			var de *astjson.DenseError
			if errors.As(err, &de) {
				return nil, invalid, &TooDenseError{Line: r.Line, Err: de}
			}
			o, ok := v.(ast.Object)
			if err != nil || !ok {
				invalid = append(invalid, i)
				continue
			}
			obj = o
			if reuse != nil {
				reuse[i] = obj
			}
		}
		if !asked || !opts.Format.PerFile() {
			asked = true
			if why := ad.Unreadable(obj); why != "" {
				return nil, invalid, &UnreadError{Format: opts.Format, Line: r.Line, Reason: why}
			}
		}
		if d := b.Add(r.Line, obj); d != nil {
			if proj != nil {
				data, line := r.Data, r.Line
				d.Reread(func() ast.Object {
					o, err := astjson.DecodeMax(data, opts.Document.MaxValues)
					var de *astjson.DenseError
					if errors.As(err, &de) && *over == nil {
						// The document then reads its projected record,
						// which the applier must not write out: Run
						// leaves the record as it was (passes.settle).
						*over = &TooDenseError{Line: line, Err: de}
					}
					obj, _ := o.(ast.Object)
					return obj
				})
			}
			doc = d
		}
	}
	if d := b.Finish(); d != nil {
		doc = d
	}
	return doc, invalid, nil
}
