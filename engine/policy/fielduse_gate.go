package policy

import (
	"sync"

	"github.com/chatlint/chatlint/engine/document"
)

// What a document whose Rego is gated is built with (FieldsFor): what the
// YAML rules read, and what the gates of the packs whose Rego applies to its
// format and profile read. The Rego rules' own reads are left out: OPA is
// given the document built whole on the documents a gate fires on
// (document.Document.ForRego).

// gateReads are what one pack's gate files (those holding only rego_when
// entries) may read: the names and paths, and the paths through raw.
type gateReads struct {
	fields *fieldSet
	raw    *readTree
}

// gateReadsOf is what the gate files of p (parts, its compiled YAML files)
// may read; nil when it has none.
func gateReadsOf(p *Pack, parts []yamlPart) *gateReads {
	var g *gateReads
	for j, f := range p.YAML {
		if !parts[j].gateOnly() {
			continue // a file with rules: its reads are the YAML rules'
		}
		if g == nil {
			g = &gateReads{fields: &fieldSet{names: nameSet{}}, raw: &readTree{}}
		}
		g.fields.yaml(f.Source)
		g.raw.merge(nil, parts[j].raw)
	}
	return g
}

// gatedFields holds the fields of gated documents by format and profile,
// each computed on first use.
type gatedFields struct {
	mu sync.Mutex
	by map[[2]string]*document.Fields
}

// gatedFieldsFor returns the fields of a document of the format under the
// profile whose Rego is gated (regoGate.gated).
func (e *Engine) gatedFieldsFor(format, profile string) *document.Fields {
	g := &e.gatedFields
	g.mu.Lock()
	defer g.mu.Unlock()
	key := [2]string{format, profile}
	if f, ok := g.by[key]; ok {
		return f
	}
	sets := []*fieldSet{e.parts.yamlReads}
	raw := &readTree{}
	raw.merge(nil, &e.parts.yamlReads.tree)
	raw.merge(nil, e.parts.yamlRaw)
	for i := range e.gate.packs {
		pk := &e.gate.packs[i]
		if pk.reads == nil || !pk.scope.open(format, profile) {
			continue
		}
		sets = append(sets, pk.reads.fields)
		raw.merge(nil, &pk.reads.fields.tree)
		raw.merge(nil, pk.reads.raw)
	}
	rec, msg := rawTrees(raw)
	f := document.NewFields(fieldReads(&readTree{}, sets...).reads).WithRaw(rec, msg).ForGate()
	if g.by == nil {
		g.by = map[[2]string]*document.Fields{}
	}
	g.by[key] = f
	return f
}
