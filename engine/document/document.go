// Package document turns the records of every input format into one
// normalized document, the shape every rule is evaluated over. See
// docs/document.md for the model.
package document

import (
	"strconv"

	"github.com/open-policy-agent/opa/v1/ast"
)

// Options change how records are normalized.
type Options struct {
	// ToolCalls forces the tool-call representation: "inline" or
	// "structured". Empty means detect it per record.
	ToolCalls string
	// Profile names the rule profile the document is checked under; rules
	// read it as the document's "profile" field. Empty means "default".
	Profile string
	// Model, when set, is the model the data is meant for (check --model,
	// or the model table's default); rules read it as the document's
	// "model" field.
	Model *Model
	// RawOnly builds per-record documents holding only their format and
	// the record as "raw", without normalizing messages, tools and mode:
	// for a pack that reads nothing else (the contract pack under
	// validate-input, where normalizing cost a seventh of the run for
	// nothing). Whole-file formats ignore it.
	RawOnly bool
	// SkipLookup leaves the lookup member out of the document: set when no
	// active rule reads it (policy.Engine.ReadsLookup), as building it costs
	// a tenth of reading and normalizing a record.
	SkipLookup bool
	// Fields, when set, names the members the active rules may read; the
	// builder leaves out the others (fields.go). check and fix set it
	// (fix with what its stages' rules and its applier read); convert --to
	// and stats read whole documents.
	Fields *Fields
	// MaxValues bounds the values the decode of one record (one line of a
	// session) builds (astjson.DecodeMax); a record over it is a
	// record-too-dense finding. 0 is astjson.DefaultMaxValues, a negative
	// bound none.
	MaxValues int
}

// DefaultProfile is the profile of a document checked without one.
const DefaultProfile = "default"

// Document is one normalized conversation or session.
type Document struct {
	Format Format
	File   string
	// Line is the 1-based line where the document starts.
	Line int
	// ID is the conversation or session id, or file:line when it has none.
	ID string
	// Profile is the rule profile (Options.Profile).
	Profile string
	// skipLookup is Options.SkipLookup.
	skipLookup bool
	// fields is Options.Fields (nil: every member).
	fields *Fields
	// whole builds the document with every member, for the Go code that
	// reads it (Messages, Tools, Entries, Locate); nil when Value is whole.
	// full caches it.
	whole func() ast.Object
	full  ast.Object
	// reread decodes the record whole when Value was built from a
	// projected one (Reread); nil otherwise.
	reread func() ast.Object
	// Value is the normalized document. Under Options.Fields its messages
	// may be MessageValues, which only the YAML evaluator reads: everything
	// else (Rego, YAML actions, Go readers) reads Materialized.
	Value ast.Object
	// views is set when Value's messages may be MessageValues; mat caches
	// Materialized.
	views bool
	mat   ast.Object
	// rego caches ForRego where it is not d (gated.go).
	rego *Document
	// toolLines are the source lines of the tools when they differ from
	// Line (proxy-log sessions gather tools from many lines).
	toolLines []int
	// model is the model examples are judged for (Options.Model), or nil.
	model *Model
	// Unmapped lists what the adapter read into no message, call, result or
	// tool (agent run metadata, per-message counters), for a conversion to
	// name what it leaves out (unmapped.go).
	Unmapped []Unmapped
}

// newDoc starts a document of format f as opts ask for it. Every builder
// starts its documents here, so the profile, the model (check --model) and
// leaving out lookup reach every format alike.
func newDoc(f Format, file string, line int, id string, opts Options) *Document {
	return &Document{Format: f, File: file, Line: line, ID: id, Profile: opts.Profile, model: opts.Model, skipLookup: opts.SkipLookup}
}

// Messages returns the normalized messages array, of the whole document
// when the rules did not need all of it (Options.Fields).
func (d *Document) Messages() *ast.Array { return arrayField(d.goValue(), KeyMessages) }

// Tools returns the normalized tools array.
func (d *Document) Tools() *ast.Array { return arrayField(d.goValue(), KeyTools) }

// Entries returns the normalized entries array.
func (d *Document) Entries() *ast.Array { return arrayField(d.goValue(), keyEntries) }

// MessageList returns the normalized messages as Locate reads them: the
// document's own, their views answering Get, unless the document leaves
// members out (then the whole document's). For Go code reading a few
// members of each message (fix's applier): Messages builds every message
// and line of a long session as OPA objects first.
func (d *Document) MessageList() *ast.Array { return d.located(KeyMessages) }

// EntryList returns the normalized entries as MessageList does.
func (d *Document) EntryList() *ast.Array { return d.located(keyEntries) }

// located is the array member k that Locate reads: of the whole document
// when Value leaves members out, else of Value itself, views and all:
// Locate reads an element's line and path by Get, which views answer, so
// placing a finding on a Codex rollout whose lines are views builds no OPA
// object of them (Materialized would build every line's).
func (d *Document) located(k *ast.Term) *ast.Array {
	if d.whole != nil {
		return arrayField(d.goValue(), k)
	}
	return arrayField(d.Value, k)
}

// Work is how much a rule has to look at in the document: the number of its
// entries, or of its messages counted with their tool calls and the parts
// of their raw content, whichever is larger, at least 1. The rule time
// limit is judged per unit of it (policy.WorkUnit), so that a long session
// is given the time its length needs, as every record of a dataset is, and
// so is one message holding a million calls or content parts (a record of
// two messages and 800,000 calls was given one time limit, 5 s, for a
// check of 8.5 s of CPU: a policy-error). A member the
// document leaves out (no rule reads it) is not counted.
func (d *Document) Work() int {
	n := 1
	if a := arrayField(d.Value, keyEntries); a != nil {
		n = max(n, a.Len())
	}
	if a := arrayField(d.Value, KeyMessages); a != nil {
		w := a.Len()
		for i := 0; i < a.Len(); i++ {
			m, ok := a.Elem(i).Value.(ast.Object)
			if !ok {
				continue
			}
			if calls := arrayField(m, KeyToolCalls); calls != nil {
				w += calls.Len()
			}
			if parts := arrayField(objectField(m, KeyRaw), keyContent); parts != nil {
				w += parts.Len()
			}
		}
		n = max(n, w)
	}
	return n
}

// goValue is the document Go code reads: Value, or the whole document
// built now when Value leaves members out.
func (d *Document) goValue() ast.Object {
	if d.whole == nil {
		return d.Materialized()
	}
	if d.full == nil {
		d.full = d.whole()
	}
	return d.full
}

func fallbackID(file string, line int) string { return file + ":" + strconv.Itoa(line) }

var defaultProfile = ast.StringTerm(DefaultProfile)

// profileTerm is the document's profile field.
func profileTerm(p string) *ast.Term {
	if p == "" || p == DefaultProfile {
		return defaultProfile
	}
	return ast.StringTerm(p)
}
