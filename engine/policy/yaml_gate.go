package policy

import (
	"fmt"

	"gopkg.in/yaml.v3"

	"github.com/chatlint/chatlint/engine/document"
	"github.com/chatlint/chatlint/engine/policy/yamlrule"
)

// A pack may say, in YAML, on which documents its Rego rules can produce
// anything at all: a YAML file of the pack lists under `rego_when:` entries
// written as YAML rules without id, severity or message (given, formats,
// mode, where, let, group, unless, assert). The pack's Rego is evaluated on
// a document only when some entry fires on it (its assert fails for an
// element, as a rule's finding would be reported). Cleanup packs use it:
// most records need nothing, and proving that with compiled matchers costs a
// fraction of one OPA evaluation. The entries must hold whenever the Rego
// could produce a finding or an action (firing more often only costs time);
// the packs' tests hold them to it by fixing every fixture with and without
// them (docs/writing-rules.md, "Gating a pack's Rego").

// regoGate holds the gate entries of the active packs.
type regoGate struct {
	// packs are the packs with Rego, each with where its Rego applies and
	// its entries (none: not gated). OPA may be skipped on a document only
	// when every pack whose Rego applies to the document's format and
	// profile is gated, and no entry of those fires: the packs share one
	// query. A pack whose Rego applies elsewhere only (the claude-code
	// pack's, beside a chat file) gives the document nothing either way.
	packs []gatedPack
}

type gatedPack struct {
	scope regoScope
	when  []*yamlrule.Rule
	// reads are what the pack's gate files may read (nil: none), for the
	// documents built for its gate (gatedFieldsFor).
	reads *gateReads
}

// gated reports whether every pack whose Rego applies to documents of the
// format under the profile is gated.
func (g *regoGate) gated(format, profile string) bool {
	for i := range g.packs {
		if len(g.packs[i].when) == 0 && g.packs[i].scope.open(format, profile) {
			return false
		}
	}
	return true
}

type gateFile struct {
	When []yaml.Node `yaml:"rego_when"`
}

// gatePack adds the compiled rego_when entries of p's YAML files (gates[i]
// those of p.YAML[i], from compileGate), where p's Rego applies (scope)
// and what its gate files read (reads).
func (e *Engine) gatePack(p *Pack, scope regoScope, gates []compiledGate, reads *gateReads, errs []string) []string {
	var when []*yamlrule.Rule
	for _, g := range gates {
		ws, err := g.rules, g.err
		if err != nil {
			errs = append(errs, err.(*CompileError).Errors...)
			continue
		}
		when = append(when, ws...)
	}
	if len(when) > 0 && len(p.Rego) == 0 {
		return append(errs, fmt.Sprintf("pack %s: rego_when gates the pack's Rego, and the pack has none", p.Name))
	}
	if len(p.Rego) == 0 {
		return errs
	}
	e.gate.packs = append(e.gate.packs, gatedPack{scope: scope, when: when, reads: reads})
	if len(when) > 0 {
		for _, r := range when {
			e.relational = e.relational || r.Relational()
			e.roleFiltered = e.roleFiltered || r.WalksByRole()
		}
	}
	return errs
}

// compiledGate is what compileGate returns for one file.
type compiledGate struct {
	rules []*yamlrule.Rule
	err   error
}

// compileGate compiles the rego_when entries of one YAML file, parsed once
// for its rules and its entries (yamlrule/source.go).
func compileGate(src *yamlrule.Source, pack string) ([]*yamlrule.Rule, error) {
	f := src.File
	var doc gateFile
	if err := src.Decode(&doc); err != nil {
		return nil, err
	}
	var out []*yamlrule.Rule
	var errs []string
	for i := range doc.When {
		n := &doc.When[i]
		r, err := compileGateEntry(n, f.Name, pack, i)
		if err != nil {
			errs = append(errs, fmt.Sprintf("%s:%d:%d: rego_when: %v", f.Name, n.Line, n.Column, err))
			continue
		}
		out = append(out, r)
	}
	if len(errs) > 0 {
		return nil, &CompileError{Errors: errs}
	}
	if err := yamlrule.LinkRules(out); err != nil {
		return nil, &CompileError{Errors: []string{fmt.Sprintf("%s: rego_when: %v", f.Name, err)}}
	}
	return out, nil
}

func compileGateEntry(n *yaml.Node, file, pack string, i int) (*yamlrule.Rule, error) {
	if n.Kind != yaml.MappingNode {
		return nil, fmt.Errorf("an entry is a map: given, where, let, group, assert")
	}
	for k := 0; k+1 < len(n.Content); k += 2 {
		switch key := n.Content[k].Value; key {
		case "id", "severity", "description", "message", "action", "repairs", "part_of", "profiles", "refs", "scope", "cases":
			return nil, fmt.Errorf("an entry has no %s: it only says when the pack's Rego runs", key)
		}
	}
	// The entry compiles as a rule with a name of its own, never listed.
	c := &yaml.Node{Kind: yaml.MappingNode, Line: n.Line, Column: n.Column, Content: append([]*yaml.Node{
		{Kind: yaml.ScalarNode, Value: "id"}, {Kind: yaml.ScalarNode, Value: fmt.Sprintf("rego_when[%d]", i)},
		{Kind: yaml.ScalarNode, Value: "severity"}, {Kind: yaml.ScalarNode, Value: "info"},
		{Kind: yaml.ScalarNode, Value: "description"}, {Kind: yaml.ScalarNode, Value: "gate of pack " + pack},
	}, n.Content...)}
	return yamlrule.CompileRule(c, file, pack)
}

// needsRego reports whether the Rego packs must be evaluated on doc: always,
// unless every pack whose Rego applies to it is gated and no entry of those
// fires.
func (e *Engine) needsRego(doc *document.Document, cache *yamlrule.Cache) bool {
	format, profile := string(doc.Format), profileOf(doc.Profile)
	if !e.gate.gated(format, profile) {
		return true
	}
	var buf [4]Hit
	for i := range e.gate.packs {
		pk := &e.gate.packs[i]
		if !pk.scope.open(format, profile) {
			continue
		}
		for _, r := range pk.when {
			if len(r.EvalIn(doc.Value, cache, buf[:0])) > 0 {
				return true
			}
		}
	}
	return false
}

// entries are the gate entries of every pack, in pack order.
func (g *regoGate) entries() []*yamlrule.Rule {
	var out []*yamlrule.Rule
	for i := range g.packs {
		out = append(out, g.packs[i].when...)
	}
	return out
}
