// Package lint checks one unit of input against a compiled engine: a record of
// a per-record format, or every line of a session file. It decodes, builds the
// normalized document, evaluates the rules and places each hit on a line of
// the file. It has no goroutines, files or ordering: check, fix, convert and a
// distributed pipeline all call it the same way.
package lint

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/chatlint/chatlint/engine/astjson"
	"github.com/chatlint/chatlint/engine/document"
	"github.com/chatlint/chatlint/engine/finding"
	"github.com/chatlint/chatlint/engine/jsonl"
	"github.com/chatlint/chatlint/engine/policy"
	"github.com/chatlint/chatlint/engine/tokens"
)

// Linter checks units one at a time. It is not safe for concurrent use:
// make one per goroutine from the same engine.
type Linter struct {
	ev   *policy.Evaluator
	opts document.Options
	// dataset is set when dataset rules apply under the profile; folds
	// says, per format, whether one applies to its files: only then are a
	// document's Facts computed.
	dataset bool
	// tokens counts each example's tokens for the fold's token summary;
	// nil unless a dataset rule reads it (dataset_tokens.go).
	tokens *tokens.Counter
	eng    *policy.Engine
	// plans says, per format, how its units are read (plan).
	plans map[document.Format]*formatPlan
	// project says documents are pruned to what the rules read of them
	// (Engine.FieldsFor; where a dataset rule folds, the record is kept
	// whole for its facts); false when the caller set opts.Fields.
	project bool
	// hashes says findings of records without an id get their
	// RecordHash: only a baseline or a SARIF fingerprint reads it, and
	// hashing every such record's whole text is costly when many have
	// findings.
	hashes bool
}

// HashRecords sets whether findings of records without an id carry the
// record's content hash (finding.Finding.RecordHash), which baselines and
// SARIF fingerprints key on.
func (l *Linter) HashRecords(on bool) { l.hashes = on }

// New returns a Linter over a compiled engine. Documents leave out the
// members no rule of the engine reads (policy.Engine.Fields), unless
// opts.Fields says otherwise.
func New(eng *policy.Engine, opts document.Options) *Linter {
	opts.SkipLookup = opts.SkipLookup || !eng.ReadsLookupUnder(opts.Profile)
	l := &Linter{ev: eng.NewEvaluator(), opts: opts, dataset: eng.HasDataset(opts.Profile), eng: eng}
	l.project = opts.Fields == nil
	if l.dataset {
		l.tokens = tokenCounter(eng.DatasetReadsTokens(opts.Profile), opts.Model)
	}
	return l
}

// formatPlan is how the linter reads the units of one format: whether a
// dataset rule folds its documents (their Facts are computed), whether the
// fold needs them whole (the content facts or token counts: else only each
// record's line and dataset key), and the options its documents are built
// with.
type formatPlan struct {
	folds, whole bool
	opts         document.Options
	// gated says opts.Fields are those of documents whose Rego is gated
	// (policy.Engine.FieldsFor): built with what the YAML rules and the
	// gates read, and built again whole for OPA where a gate fires. seen
	// and fired count such documents and those built again: where a gate
	// fires on most (every record under a profile the gate does not
	// cover), each is decoded once, with the fields the Rego reads.
	gated       bool
	seen, fired int
}

// gateSample is how many documents built for a gate the linter counts
// before it judges whether the gate fires on most of them.
const gateSample = 64

// plan returns the plan for format f, decided once per format: the
// answers depend only on the format and the linter's profile, and asking
// the engine for every record of a chat file cost a scan of its rules each.
func (l *Linter) plan(f document.Format) *formatPlan {
	if p, ok := l.plans[f]; ok {
		return p
	}
	p := &formatPlan{folds: l.dataset && l.eng.HasDatasetFor(l.opts.Profile, string(f)), opts: l.opts}
	p.whole = p.folds && (l.tokens != nil || l.eng.DatasetReadsContent(p.opts.Profile, string(f)))
	if l.project {
		p.opts.Fields = l.fields(f, p, l.eng.FieldsFor(string(f), p.opts.Profile))
		p.gated = p.opts.Fields.Gated()
	}
	// The lookup only where a rule that may read it runs (ReadsLookupFor).
	p.opts.SkipLookup = p.opts.SkipLookup || !l.eng.ReadsLookupFor(string(f), p.opts.Profile)
	if l.plans == nil {
		l.plans = map[document.Format]*formatPlan{}
	}
	l.plans[f] = p
	return p
}

// fields are the fields the engine gives documents of format f (fs) with
// what the plan's fold reads of them.
func (l *Linter) fields(f document.Format, p *formatPlan, fs *document.Fields) *document.Fields {
	switch {
	case p.whole: // the content facts, read from the record whole
		fs = fs.WithWholeRaw()
	case p.folds: // the dataset key alone
		fs = fs.WithDatasetKey(f)
	}
	if p.folds && l.tokens != nil { // each example counted as built
		fs = fs.WithTokenReads()
	}
	if !l.eng.MessageViewsFor(string(f), p.opts.Profile) {
		fs = fs.PlainMessages()
	}
	return fs
}

// sawGated counts a document of format f built for a gate, rebuilt when
// the gate fired on it; after each sample, a plan whose gate fired on most
// of its documents turns to the fields the Rego reads.
func (l *Linter) sawGated(f document.Format, p *formatPlan, rebuilt bool) {
	p.seen++
	if rebuilt {
		p.fired++
	}
	if p.seen < gateSample {
		return
	}
	if 2*p.fired > p.seen {
		p.gated = false
		p.opts.Fields = l.fields(f, p, l.eng.UngatedFieldsFor(string(f), p.opts.Profile))
	}
	p.seen, p.fired = 0, 0
}

// Folds reports whether the linter computes Facts for a dataset fold: some
// active dataset rule applies under its profile.
func (l *Linter) Folds() bool { return l.dataset }

// Unit is what one call to Check checks: one record of a per-record format,
// or the records of a whole session file, in order.
type Unit struct {
	File string
	// Format is the file's format; "" when it matched none, in which case
	// only syntax is checked.
	Format  document.Format
	Records []jsonl.Record
	// Forced is true when the user forced Format rather than detection
	// finding it: records are then checked to fit it (format-mismatch).
	Forced bool
	// First, when not nil, is Records[0] already decoded (the reader decodes
	// a file's first record to detect its format), so it is not decoded twice.
	First ast.Object
	// Duplicate, when set, says the record's unique member (a batch line's
	// custom_id) took a value an earlier line of its file used: the reader
	// knows, the record's document carries it, a rule reports it.
	Duplicate *Duplicate
	// Release says the caller reads the records' bytes no more once the
	// unit is checked: Check then drops each line of a session as soon as
	// it is decoded, so that a long session's text is not held beside its
	// decoded entries while the rules run (Records[i].Data and Raw become
	// nil). It is ignored when findings carry record hashes
	// (HashRecords), which read the records after the rules.
	Release bool
}

// Duplicate is a unique member's value used again.
type Duplicate struct {
	Member, Value string
	FirstLine     int
}

// Check returns the findings of one unit, sorted.
func (l *Linter) Check(ctx context.Context, u Unit) []finding.Finding {
	out, _ := l.CheckFacts(ctx, u)
	return out
}

// CheckFacts returns the findings of one unit, sorted, and the Facts of its
// documents for the file's dataset fold (none unless Folds).
func (l *Linter) CheckFacts(ctx context.Context, u Unit) ([]finding.Finding, []Facts) {
	if len(u.Records) == 0 {
		return nil, nil
	}
	var found []finding.Finding
	var fa []Facts
	p := l.plan(u.Format)
	fold, whole, opts := p.folds, p.whole, p.opts
	u.Release = u.Release && !l.hashes
	out := Documents(u, opts, func(d *document.Document, rec *jsonl.Record) {
		dctx := ctx
		if fold {
			f := keyFacts(d)
			if whole {
				f = facts(d)
			}
			f.Tokens = exampleTokens(l.tokens, d)
			fa = append(fa, f)
			if f.Tokens >= 0 { // a rule counting this example takes the fold's count
				dctx = tokens.WithCount(ctx, d.Is, l.opts.Model.Encoding, f.Tokens)
				d.SetExampleTokens(f.Tokens)
			}
		}
		fs := l.Document(dctx, d)
		if p.gated {
			l.sawGated(u.Format, p, d.RebuiltForRego())
		}
		if rec != nil && bytes.IndexByte(rec.Data, '\n') >= 0 {
			onLines(fs, *rec)
		}
		found = append(found, fs...)
	})
	out = append(out, found...)
	if l.hashes {
		identify(out, u.Records)
	}
	slices.SortFunc(out, finding.Compare)
	return out, fa
}

// Documents reads one unit as Check does — decoding, the fit test of a
// forced format, the format's builder — and calls each with every document
// it gives, in order: rec is the record of a per-record document, nil for a
// session's. It returns the findings of the records that could not be read
// (syntax, format-mismatch). A command that uses the documents otherwise
// than to check them (convert --to) reads through it, so it reads exactly
// what check checks.
func Documents(u Unit, opts document.Options, each func(d *document.Document, rec *jsonl.Record)) []finding.Finding {
	return documents(u, opts, projection(u, opts), each)
}

// documents is Documents decoding each record as proj says (nil: whole).
func documents(u Unit, opts document.Options, proj *astjson.Projection, each func(d *document.Document, rec *jsonl.Record)) []finding.Finding {
	var out []finding.Finding
	if len(u.Records) == 0 {
		return out
	}
	b := document.NewBuilder(u.Format, u.File, opts)
	if e, ok := b.(document.Expecter); ok {
		e.Expect(len(u.Records))
	}
	adapter := document.Lookup(u.Format)
	skip := u.Format == "" // only syntax is checked
	fitted := false
	// A session's lines live as long as its document: their terms are
	// carved from blocks they share (astjson.Slabs).
	var slabs *astjson.Slabs
	if adapter != nil && adapter.PerFile {
		slabs = astjson.NewSlabs(adapter.RepeatsIDs)
	}
	for i := range u.Records {
		rec := &u.Records[i]
		obj := u.First
		projected := false
		if i > 0 || obj == nil {
			var bad *finding.Finding
			if obj, bad = decodeIn(u.File, *rec, proj, slabs, opts.MaxValues); bad != nil {
				out = append(out, *bad)
				if bad.Rule == RuleTooDense && adapter != nil && adapter.PerFile {
					// A session missing a line it holds would be judged
					// on what it is not: it is not checked further.
					skip = true
				}
				continue
			}
			projected = proj != nil
		}
		if skip {
			continue
		}
		if adapter != nil && (!fitted || !adapter.PerFile) {
			fitted = true // a session's first object decides for the file
			missing := adapter.Unreadable(obj)
			if missing == "" && u.Forced {
				missing = adapter.Misfit(obj)
			}
			if missing != "" {
				out = append(out, mismatch(u.File, rec.Line, u.Format, u.Forced, obj, missing))
				skip = adapter.PerFile // a session that does not fit is not checked
				continue
			}
		}
		d, err := buildRecovered(func() *document.Document { return b.Add(rec.Line, obj) })
		if err != nil {
			out = append(out, coreFinding(RulePolicyError, u.File, rec.Line, err.Error()))
			skip = adapter != nil && adapter.PerFile // a session's builder is not trusted after it
			continue
		}
		if d == nil && u.Release && adapter != nil && adapter.PerFile {
			// A session's line is decoded and handed to the builder,
			// which holds the decoded value: its text is read no more.
			rec.Data, rec.Raw = nil, nil
		}
		if d != nil {
			if projected {
				// Unbounded: the projected decode was under the bound,
				// and a Rego gate that fired reads the record whole.
				d.Reread(func() ast.Object { whole, _ := DecodeMax(u.File, *rec, -1); return whole })
			}
			if u.Duplicate != nil {
				d.MarkDuplicate(u.Duplicate.Member, u.Duplicate.Value, u.Duplicate.FirstLine)
			}
			each(d, rec)
		}
	}
	if skip {
		return out
	}
	d, err := buildRecovered(b.Finish)
	if err != nil {
		out = append(out, coreFinding(RulePolicyError, u.File, u.Records[0].Line, err.Error()))
	} else if d != nil {
		each(d, nil)
	}
	return out
}

// identify gives the findings of records without an id their content
// identity (finding.RecordHash), hashed from the record they name: the
// record at their fallback file:line, or at their own line when they have no
// record. Only findings pay for it, each record once.
func identify(fs []finding.Finding, recs []jsonl.Record) {
	line, hash := 0, ""
	for i := range fs {
		n, ok := finding.FallbackLine(fs[i])
		if !ok {
			continue
		}
		if n != line {
			k, found := slices.BinarySearchFunc(recs, n, func(r jsonl.Record, n int) int { return r.Line - n })
			if !found {
				continue
			}
			line, hash = n, recordHash(recs[k])
		}
		fs[i].RecordHash = hash
	}
}

// mismatch is the finding for a record that does not fit a forced format.
// A record of a detected format that its adapter cannot read (Adapter.Unread)
// is one too: it is reported rather than guessed at.
func mismatch(file string, line int, f document.Format, forced bool, obj ast.Object, missing string) finding.Finding {
	what := "record"
	if f.PerFile() {
		what = "file"
	}
	by := "--format " + string(f)
	if !forced {
		by = "the file was taken for " + string(f) + " by its first records, but"
	}
	return coreFinding(RuleMismatch, file, line, fmt.Sprintf(
		"%s: the %s does not fit: it lacks %s (its keys: {%s})", by, what, missing, document.Keys(obj)))
}

// onLines moves the findings of a record that spans several lines (an
// element of a .json array) to the line of the element each one names.
func onLines(fs []finding.Finding, rec jsonl.Record) {
	for i := range fs {
		f := &fs[i]
		if f.Path == "" || f.Line != rec.Line {
			continue
		}
		if off, ok := jsonl.ValueOffset(rec.Data, f.Path); ok {
			f.Line = rec.Line + bytes.Count(rec.Data[:off], []byte{'\n'})
		}
	}
}

// Document evaluates every active rule over one document and returns the
// findings placed in its file. A policy that fails on the document, or
// produces a malformed finding, gives a policy-error finding naming the
// record.
func (l *Linter) Document(ctx context.Context, d *document.Document) []finding.Finding {
	hits, err := l.ev.Evaluate(ctx, d)
	var out []finding.Finding
	var bad *policy.OutputError
	switch {
	case errors.As(err, &bad): // one finding per malformed finding
		for _, p := range bad.Problems {
			out = append(out, policyError(d, p))
		}
	case err != nil:
		out = append(out, policyError(d, err.Error()))
	}
	return append(out, Place(d, hits)...)
}

// policyError names the record by its id; a record without one is named by
// the finding's own file:line, which is not repeated in the message.
func policyError(d *document.Document, msg string) finding.Finding {
	if !strings.HasPrefix(d.ID, d.File+":") {
		msg = fmt.Sprintf("record %s: %s", d.ID, msg)
	}
	f := coreFinding(RulePolicyError, d.File, d.Line, msg)
	f.Record = d.ID
	return f
}

// Place turns rule hits on a document into findings on lines of its file. A
// hit naming an element the document does not have (a message past the
// last one) is a policy error, not a finding on some other line.
func Place(d *document.Document, hits []policy.Hit) []finding.Finding {
	out := make([]finding.Finding, 0, len(hits))
	for _, h := range hits {
		line, path, ok := d.Locate(h.Target)
		if !ok {
			out = append(out, policyError(d, fmt.Sprintf("pack %s: rule %s: a finding names %q, which the document does not have", h.Pack, h.Rule, h.Target)))
			continue
		}
		if h.Path != "" {
			path = h.Path
		}
		f := finding.Finding{
			Rule: h.Rule, Severity: h.Severity, Message: h.Message, Pack: h.Pack,
			File: d.File, Line: line, Record: d.ID, Path: path,
		}
		if i, ok := h.Target.Message(); ok {
			f.MessageIndex = &i
		}
		out = append(out, f)
	}
	return out
}

// Decode decodes one record, or returns the finding that says why it is not
// a JSON object or why it was not built (over astjson.DefaultMaxValues).
func Decode(file string, rec jsonl.Record) (ast.Object, *finding.Finding) {
	return decode(file, rec, nil, 0)
}

// DecodeMax is Decode building at most max values (astjson.DecodeMax: 0 is
// the default bound, a negative max none).
func DecodeMax(file string, rec jsonl.Record, max int) (ast.Object, *finding.Finding) {
	return decode(file, rec, nil, max)
}

// decode is DecodeMax building only what p keeps (astjson.DecodeProjected),
// with the same findings.
func decode(file string, rec jsonl.Record, p *astjson.Projection, max int) (ast.Object, *finding.Finding) {
	return decodeIn(file, rec, p, nil, max)
}

// decodeIn is decode carving the record's terms from slabs, when not nil.
func decodeIn(file string, rec jsonl.Record, p *astjson.Projection, slabs *astjson.Slabs, max int) (ast.Object, *finding.Finding) {
	var v ast.Value
	var err error
	var kind string
	if astjson.OpensObject(rec.Data) {
		v, err = astjson.DecodeProjectedIn(rec.Data, p, slabs, max)
	} else {
		kind, err = astjson.KindOf(rec.Data) // validated, not built: no rule reads it
	}
	var de *astjson.DenseError
	if errors.As(err, &de) {
		f := TooDenseFinding(file, rec.Line, de)
		return nil, &f
	}
	var re *astjson.RangeError
	switch {
	case errors.As(err, &re):
		f := coreFinding(RuleSyntax, file, rec.Line, "the record was not checked: "+err.Error())
		return nil, &f
	case err != nil:
		f := coreFinding(RuleSyntax, file, rec.Line, "invalid JSON: "+err.Error())
		return nil, &f
	}
	obj, ok := v.(ast.Object)
	if !ok {
		if kind == "" {
			kind = astjson.Kind(v)
		}
		f := coreFinding(RuleSyntax, file, rec.Line, fmt.Sprintf("a record must be a JSON object, not %s", kind))
		return nil, &f
	}
	return obj, nil
}

// HandOverMax bounds the first records whose detection decode a check that
// projects hands on (runner.Options.Projected): a bigger one is decoded
// again as the check's projection says, which builds less than detection's
// whole decode (a record of 829,284 tool calls held 349 MB more as OPA
// objects than as the projection's views). Commands that build whole
// records reuse detection's decode at any size.
const HandOverMax = 1 << 20

// DetectWindow is how many leading records, from the first JSON object on,
// detection looks at: a session may open with entries no format claims (a
// Claude Code file-history snapshot or summary), and a later one decides.
const DetectWindow = 16

// Detect names the format of a file from a record: ok is false when the
// record is not a JSON object (detection waits for the next record); when it
// is one but matches no format, format is "" and unrecognized is the finding
// to report once for the file. obj is the decoded record, to pass on as
// Unit.First; nil when detection did not build it whole.
//
// Detection reads the record's shape: a long list of numbers in it (a
// 60 MB line of [0,0,...]) keeps only its first elements
// (astjson.DecodeShape), and the record is then decoded again by its check
// as the format's projection says, rather than built whole here.
func Detect(file string, rec jsonl.Record) (format document.Format, obj ast.Object, unrecognized *finding.Finding, ok bool) {
	return DetectMax(file, rec, 0)
}

// DetectMax is Detect building at most max values of the record's shape
// (astjson.DecodeShapeMax; 0 is the default bound): a record over it is
// not an object to detection, which waits for the next record, and its
// check reports it (record-too-dense).
func DetectMax(file string, rec jsonl.Record, max int) (format document.Format, obj ast.Object, unrecognized *finding.Finding, ok bool) {
	if !astjson.OpensObject(rec.Data) {
		return "", nil, nil, false
	}
	v, whole, err := astjson.DecodeShapeMax(rec.Data, max)
	obj, isObj := v.(ast.Object)
	if err != nil || !isObj {
		return "", nil, nil, false
	}
	first := obj
	if !whole {
		first = nil
	}
	if f, known := document.Detect(obj); known {
		return f, first, nil, true
	}
	msg := fmt.Sprintf("unrecognized format: the first record has keys {%s}; expected %s (force one with --format)",
		document.Keys(obj), document.FormatNames())
	if like, do, ok := document.Resemble(obj); ok {
		msg = fmt.Sprintf("unrecognized format: the first record (keys {%s}) looks like %s, which chatlint does not read; %s",
			document.Keys(obj), like, do)
	}
	u := coreFinding(RuleUnrecognized, file, rec.Line, msg)
	u.RecordHash = recordHash(rec)
	return "", first, &u, true
}

// recordHash is finding.HashRecord of a record as read (Raw; Data for a
// record built without it).
func recordHash(rec jsonl.Record) string {
	if rec.Raw == nil {
		return finding.HashRecord(rec.Data)
	}
	return finding.HashRecord(rec.Raw)
}

// Options returns the document options the linter was made with.
func (l *Linter) Options() document.Options { return l.opts }
