package lint

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/chatlint/chatlint/engine/document"
	"github.com/chatlint/chatlint/engine/finding"
	"github.com/chatlint/chatlint/engine/jsonl"
	"github.com/chatlint/chatlint/engine/policy"
)

// Facts are what the dataset fold keeps of one record's document: its line,
// its record type, the hash of its content and the value of its format's
// dataset key. A file's records are folded into its dataset document
// (docs/document.md#the-dataset-document) from these alone, so memory grows
// by one hash per record, never by records.
type Facts struct {
	Line int
	// Type is the record type: chat (messages), interactions
	// (mistral-finetune's interactions instead of messages), preference
	// (input and preferred_output), prompt_completion (prompt and
	// completion), text (a text member and none of those), other;
	// a session document's type is its format.
	Type string
	// Hash identifies the record's content: the record with its top-level
	// id left out, objects taken in key order, so two records that differ
	// only in id or key order are the same example. Type "" and Hash 0
	// leave the record out of the record types and the content duplicates
	// (a fold of keys alone, as validate-input's).
	Hash uint64
	// Tokens are the example's tokens in the model's encoding; -1 when the
	// run does not count them (dataset_tokens.go).
	Tokens int
	// Member and Key are the record's dataset key (document.Adapter.DatasetKey):
	// the member's name and its value; Member "" when the record has none.
	Member, Key string
}

// facts computes the Facts of a document.
func facts(d *document.Document) Facts {
	var raw ast.Object // the record whole (formatPlan), its message views read as objects
	if t := d.Value.Get(document.KeyRaw); t != nil {
		raw, _ = t.Value.(ast.Object)
	}
	f := Facts{Line: d.Line, Type: recordType(d.Format, raw), Tokens: -1}
	if raw != nil {
		f.Hash = contentHash(raw)
	} else {
		f.Hash = emptyHash
	}
	if ad := document.Lookup(d.Format); ad != nil && ad.DatasetKey != nil && raw != nil {
		f.Member, f.Key = ad.DatasetKey(raw)
	}
	return f
}

// keyFacts are the Facts of a document for a fold that needs only its line
// and dataset key: Type "" and Hash 0 leave it out of the record types and
// the content duplicates, which no rule of the fold reads. The key is read
// from the record as the document holds it (raw, whole: the plan keeps it).
func keyFacts(d *document.Document) Facts {
	f := Facts{Line: d.Line, Tokens: -1}
	if ad := document.Lookup(d.Format); ad != nil && ad.DatasetKey != nil {
		if t := d.Value.Get(document.KeyRaw); t != nil {
			if raw, _ := t.Value.(ast.Object); raw != nil {
				f.Member, f.Key = ad.DatasetKey(raw)
			}
		}
	}
	return f
}

// Record types of the dataset document.
const (
	TypeChat             = "chat"
	TypeInteractions     = "interactions"
	TypePreference       = "preference"
	TypePromptCompletion = "prompt_completion"
	TypeText             = "text"
	TypeOther            = "other"
)

func recordType(f document.Format, raw ast.Object) string {
	if f.PerFile() {
		return string(f)
	}
	has := func(k string) bool { return raw != nil && raw.Get(ast.StringTerm(k)) != nil }
	switch {
	case has("input") && (has("preferred_output") || has("non_preferred_output")):
		return TypePreference
	case has("messages"):
		return TypeChat
	case f == document.Chat && has("interactions"):
		return TypeInteractions
	case has("prompt") && has("completion"):
		return TypePromptCompletion
	case has("text"):
		return TypeText
	}
	return TypeOther
}

// MaxDuplicates bounds the duplicates listed in a dataset document; the
// count goes on beyond it.
const MaxDuplicates = 1000

// Dataset folds the facts of one file's records, in order, into the file's
// dataset document.
type Dataset struct {
	File    string
	Format  document.Format
	opts    document.Options
	records int
	first   int
	types   map[string]int
	typeAt  map[string]int
	seen    map[uint64]int
	dups    []*ast.Term
	ndups   int
	tokens  tokenFold
	keys    keyFold
	// layout is what the file holds besides records (jsonl.Layout), and
	// whole says the fold saw the file to its end (SetLayout): only then
	// is a file without records judged, as an empty file.
	layout jsonl.Layout
	whole  bool
	// KeyBound is how many repeated keys the document lists at most (the
	// count goes on): MaxDuplicates unless the caller sets it, which it may
	// do between Adds (validate-input lists only what its report can show).
	KeyBound int
}

// NewDataset starts the fold of one file.
func NewDataset(file string, format document.Format, opts document.Options) *Dataset {
	return &Dataset{File: file, Format: format, opts: opts, types: map[string]int{}, typeAt: map[string]int{}, seen: map[uint64]int{}, KeyBound: MaxDuplicates}
}

// Add folds one record's facts. It returns the line of the first record
// folded with the same dataset key, or 0 when the key is new or there is
// none.
func (d *Dataset) Add(f Facts) (keyFirst int) {
	d.records++
	if d.first == 0 {
		d.first = f.Line
	}
	if d.opts.Model != nil {
		d.tokens.add(f.Tokens, d.opts.Model.Limit)
	}
	if f.Member != "" {
		keyFirst = d.keys.add(f, d.KeyBound)
	}
	if f.Type != "" {
		d.types[f.Type]++
		if _, ok := d.typeAt[f.Type]; !ok {
			d.typeAt[f.Type] = f.Line
		}
	}
	if f.Hash == 0 {
		return keyFirst
	}
	if first, ok := d.seen[f.Hash]; ok {
		d.ndups++
		if len(d.dups) < MaxDuplicates {
			d.dups = append(d.dups, ast.ObjectTerm(
				ast.Item(ast.StringTerm("line"), ast.IntNumberTerm(f.Line)),
				ast.Item(ast.StringTerm("first_line"), ast.IntNumberTerm(first))))
		}
		return keyFirst
	}
	d.seen[f.Hash] = f.Line
	return keyFirst
}

// SetLayout gives the fold what the reader saw of the file besides its
// records, once it has read the whole file.
func (d *Dataset) SetLayout(l jsonl.Layout) {
	d.layout, d.whole = l, true
}

// Records is the number of records folded so far.
func (d *Dataset) Records() int { return d.records }

// Document is the dataset document (docs/document.md#the-dataset-document).
func (d *Dataset) Document() ast.Object {
	types := ast.NewObject()
	at := ast.NewObject()
	for t, n := range d.types {
		types.Insert(ast.StringTerm(t), ast.IntNumberTerm(n))
		at.Insert(ast.StringTerm(t), ast.IntNumberTerm(d.typeAt[t]))
	}
	profile := d.opts.Profile
	if profile == "" {
		profile = document.DefaultProfile
	}
	model := ast.NullTerm()
	if d.opts.Model != nil {
		model = d.opts.Model.Term()
	}
	return ast.NewObject(
		ast.Item(ast.StringTerm("kind"), ast.StringTerm("dataset")),
		ast.Item(ast.StringTerm("file"), ast.StringTerm(d.File)),
		ast.Item(ast.StringTerm("format"), ast.StringTerm(string(d.Format))),
		ast.Item(ast.StringTerm("profile"), ast.StringTerm(profile)),
		ast.Item(ast.StringTerm("model"), model),
		ast.Item(ast.StringTerm("records"), ast.IntNumberTerm(d.records)),
		ast.Item(ast.StringTerm("first_line"), ast.IntNumberTerm(d.first)),
		ast.Item(ast.StringTerm("record_types"), ast.NewTerm(types)),
		ast.Item(ast.StringTerm("record_type_lines"), ast.NewTerm(at)),
		ast.Item(ast.StringTerm("duplicates"), ast.ArrayTerm(d.dups...)),
		ast.Item(ast.StringTerm("duplicate_count"), ast.IntNumberTerm(d.ndups)),
		ast.Item(ast.StringTerm("distinct"), ast.IntNumberTerm(len(d.seen))),
		ast.Item(ast.StringTerm("tokens"), d.tokens.term(d.opts.Model)),
		ast.Item(ast.StringTerm("key_duplicates"), ast.ArrayTerm(d.keys.listed...)),
		ast.Item(ast.StringTerm("key_duplicate_count"), ast.IntNumberTerm(d.keys.repeats)),
		ast.Item(ast.StringTerm("distinct_keys"), ast.IntNumberTerm(len(d.keys.first))),
		ast.Item(ast.StringTerm("bom"), ast.BooleanTerm(d.layout.BOM)),
		ast.Item(ast.StringTerm("blank_lines"), intsTerm(d.layout.Blank)),
		ast.Item(ast.StringTerm("blank_line_count"), ast.IntNumberTerm(d.layout.Blanks)),
	)
}

// CheckDataset evaluates the dataset rules over a file's fold and places
// their findings: on the line a finding names, else on the file's first
// record.
func (l *Linter) CheckDataset(ctx context.Context, d *Dataset) []finding.Finding {
	if d == nil || d.records == 0 && !d.whole {
		return nil
	}
	hits, err := l.ev.EvaluateDataset(ctx, string(d.Format), d.opts.Profile, d.Document())
	var out []finding.Finding
	var bad *policy.OutputError
	switch {
	case errors.As(err, &bad):
		for _, p := range bad.Problems {
			out = append(out, coreFinding(RulePolicyError, d.File, d.first, "dataset rules: "+p))
		}
	case err != nil:
		out = append(out, coreFinding(RulePolicyError, d.File, d.first, fmt.Sprintf("dataset rules: %v", err)))
	}
	for _, h := range hits {
		line := h.Line
		if line <= 0 {
			line = d.first
		}
		out = append(out, finding.Finding{Rule: h.Rule, Severity: h.Severity, Message: h.Message, Pack: h.Pack,
			File: d.File, Line: line, Record: fmt.Sprintf("%s:%d", d.File, line)})
	}
	slices.SortFunc(out, finding.Compare)
	return out
}

func intsTerm(ns []int) *ast.Term {
	ts := make([]*ast.Term, len(ns))
	for i, n := range ns {
		ts[i] = ast.IntNumberTerm(n)
	}
	return ast.ArrayTerm(ts...)
}
