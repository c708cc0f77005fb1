package policy

import (
	"github.com/chatlint/chatlint/engine/document"
	"maps"
)

// Which document paths the active rules may read (decision 2 of issue 25):
// the builder leaves out the members none reads (document.Fields). A member
// wrongly left out would make a rule see it absent and silently stop firing,
// so every doubt counts as a read, of everything below the path in doubt.

// readTree is a set of document paths: each node a member some rule may
// read, "*" standing for any member or element.
type readTree struct {
	all bool // everything below is read
	// same: the value is compared with the value at the same path of
	// another element (a YAML same_as), so a stand-in that keeps its
	// equality serves (document.RawTree.Same)
	same bool
	kids map[string]*readTree
}

// add records that path may be read: whole when full, else only that it is
// looked at (it must be there as it is, whatever lies below).
func (t *readTree) add(path []string, full bool) {
	if t = t.walk(path); t != nil && full {
		t.all, t.kids, t.same = true, nil, false
	}
}

// addSame records that path is compared with the same path of another
// element (readTree.same).
func (t *readTree) addSame(path []string) {
	if t = t.walk(path); t != nil && !t.all {
		t.same = true
	}
}

// walk is the node of path, made where missing, or nil where a node on the
// way is read whole already.
func (t *readTree) walk(path []string) *readTree {
	for _, s := range path {
		if t.all {
			return nil
		}
		if t.kids == nil {
			t.kids = map[string]*readTree{}
		}
		k := t.kids[s]
		if k == nil {
			k = &readTree{}
			t.kids[s] = k
		}
		t = k
	}
	return t
}

// reads reports whether a rule may read path or anything below it. A "*"
// in path is any element; a "*" in the tree matches any segment.
func (t *readTree) reads(path ...string) bool {
	if t == nil {
		return false
	}
	if t.all || t.same || len(path) == 0 {
		return true // a value compared is read below too
	}
	rest := path[1:]
	if path[0] == "*" {
		for _, k := range t.kids {
			if k.reads(rest...) {
				return true
			}
		}
		return false
	}
	return t.kids[path[0]].reads(rest...) || t.kids["*"].reads(rest...)
}

// fieldSet is what the active rules may read: the paths found in Rego, and
// the member names YAML files mention.
type fieldSet struct {
	tree  readTree
	names nameSet
}

// nameSet holds member names, each with named set. A word of a YAML file
// (yamlWords) names its "<word>_path" too; pathed on a name says that one is
// in the set already, so a word met again costs one lookup.
type nameSet map[string]uint8

const (
	named  uint8 = 1
	pathed uint8 = 2
)

// reads reports whether a rule may read path or anything below it: the
// tree says so, or a YAML file names each member on the path.
func (s *fieldSet) reads(path ...string) bool {
	if s.tree.reads(path...) {
		return true
	}
	if len(s.names) == 0 {
		return false
	}
	for _, p := range path {
		if p != "*" && s.names[p]&named == 0 {
			return false
		}
	}
	return true
}

// Fields returns what the active rules may read of a document, for the
// builder (document.Options.Fields). What the Rego rules read is known once
// they are compiled: Fields compiles them (Options.LazyRego); FieldsFor
// only where a Rego rule applies.
func (e *Engine) Fields() *document.Fields {
	if _, err := e.program(); err != nil {
		return nil // every member: the evaluation reports the error
	}
	return e.fields
}

// FieldsFor returns what the active rules may read of a document of the
// format under the profile: OPA runs on a document only when a Rego rule
// applies to its format and profile (regoScope), so where none does, what
// the Rego modules read is not read. The finetune pack's Rego reads every
// record whole, yet a default-profile check of a chat file runs none of it.
//
// Where every pack whose Rego applies is gated (rego_when), OPA runs only on
// the documents a gate fires on: the others are built with what the YAML
// rules and the gates read (Engine.gatedFields), and the few OPA is given
// are built again whole from the whole record (document.Document.ForRego).
// The gates read are those of the packs whose Rego applies there: the
// finetune pack's gate reads the lookup, which a contract record checked
// with the default packs then does not build.
// The contract pack's Rego reads the record whole: a clean record is then
// decoded only as far as the gate and the YAML rules read it.
func (e *Engine) FieldsFor(format, profile string) *document.Fields {
	if e.hasRego && e.regoScope.open(format, profileOf(profile)) {
		if e.gate.gated(format, profileOf(profile)) && document.RebuildsWhole(document.Format(format)) {
			return e.gatedFieldsFor(format, profileOf(profile)) // the Rego compiled at the first gate that fires
		}
	}
	return e.UngatedFieldsFor(format, profile)
}

// UngatedFieldsFor is FieldsFor as if no gate kept OPA off: the fields
// the Rego rules read besides, for a run whose gate fires on most documents
// (a document built for a gate it fires on is built twice).
func (e *Engine) UngatedFieldsFor(format, profile string) *document.Fields {
	if e.hasRego && e.regoScope.open(format, profileOf(profile)) {
		ep := e.programOf(docKey{format: format, profile: profileOf(profile)})
		if ep == nil || ep.err != nil {
			return nil // every member: the evaluation reports the error
		}
		return ep.fields
	}
	return e.yamlFields
}

// engineFields are the fields the active rules may read (Engine.fields),
// the Rego rules reading regoReads, and those the YAML rules alone may
// (Engine.yamlFields), each knowing what the
// YAML rules read of raw (yamlRawSource, with the elements a "$" or a
// context reads whole) unless a Rego rule may read raw too: its reads are
// not split into shape and value.
func engineFields(parts *compiledParts, regoReads *readTree) (all, yaml *document.Fields) {
	raw := &readTree{}
	raw.merge(nil, &parts.yamlReads.tree)
	raw.merge(nil, parts.yamlRaw)
	rec, msg := rawTrees(raw)
	// The gates' reads are the Rego's: only where it runs.
	rawAll := &readTree{}
	rawAll.merge(nil, raw)
	rawAll.merge(nil, &parts.gateReads.tree)
	rawAll.merge(nil, parts.gateRaw)
	recAll, msgAll := rawTrees(rawAll)
	all = document.NewFields(fieldReads(regoReads, parts.yamlReads, parts.gateReads).reads)
	if !regoReads.reads("raw") && !regoReads.reads("messages", "*", "raw") {
		all = all.WithRaw(recAll, msgAll)
	}
	yaml = document.NewFields(fieldReads(&readTree{}, parts.yamlReads).reads).WithRaw(rec, msg)
	return all, yaml
}

// fieldReads computes what the active rules may read: the paths the
// compiled Rego modules read (regoPaths, into rego) and what the YAML files
// of the packs may read (yamlFieldReads: the rules', then the gates'). Compile finds the two apart
// (compile_parts.go).
func fieldReads(rego *readTree, yaml ...*fieldSet) *fieldSet {
	s := &fieldSet{names: yaml[0].names}
	s.tree.merge(nil, rego)
	for i, y := range yaml {
		s.tree.merge(nil, &y.tree)
		if i > 0 && len(y.names) > 0 {
			names := maps.Clone(s.names)
			maps.Copy(names, y.names)
			s.names = names
		}
	}
	return s
}

// yamlFieldReads is what the YAML files of the packs may read: those with
// rules, and apart those that hold only a pack's rego_when entries (parts
// says which; nil: none), which are evaluated only where the pack's Rego
// applies.
func yamlFieldReads(packs []*Pack, parts [][]yamlPart) (rules, gates *fieldSet) {
	rules = &fieldSet{names: nameSet{}}
	gates = &fieldSet{names: nameSet{}}
	for i, p := range packs {
		for j, f := range p.YAML {
			if parts != nil && parts[i][j].gateOnly() {
				gates.yaml(f.Source)
			} else {
				rules.yaml(f.Source)
			}
		}
	}
	return rules, gates
}

// merge adds every path of o to t, as if each add made to o were made to t
// (o's node at path is t's node at path).
func (t *readTree) merge(path []string, o *readTree) {
	if o.all {
		t.add(path, true)
		return
	}
	if len(path) > 0 {
		t.add(path, false)
	}
	if o.same {
		t.addSame(path)
	}
	for k, kid := range o.kids {
		t.merge(append(path[:len(path):len(path)], k), kid)
	}
}
