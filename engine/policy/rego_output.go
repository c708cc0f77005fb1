package policy

import (
	"encoding/json"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/chatlint/chatlint/engine/document"
	"github.com/chatlint/chatlint/engine/finding"
)

// Findings are read straight from the values topdown produced. Only a
// well-formed finding is read that way; anything else takes the path it
// always took — the value converted to Go as rego.Eval converted it, read by
// hitFromObject — so every error keeps its wording.

var (
	keyRule     = ast.StringTerm("rule")
	keyMsg      = ast.StringTerm("msg")
	keyMessage  = ast.StringTerm("message")
	keySeverity = ast.StringTerm("severity")
	keyTarget   = ast.StringTerm("target")
	keyPath     = ast.StringTerm("path")
	keyLine     = ast.StringTerm("line")
	keyMsgIdx   = ast.StringTerm("message_index")
	keyCallIdx  = ast.StringTerm("tool_call_index")
	keyToolIdx  = ast.StringTerm("tool_index")
	keyEntryIdx = ast.StringTerm("entry_index")
)

// hitFromValue reads a finding a Rego rule produced; see hitFromObject.
func (p *regoProgram) hitFromValue(pack string, sev finding.Severity, v ast.Value) (Hit, error) {
	if h, ok := p.wellFormedHit(pack, sev, v); ok {
		return h, nil
	}
	g, err := ast.JSON(v)
	if err != nil {
		return Hit{}, err
	}
	return p.hitFromObject(pack, sev, g)
}

// wellFormedHit reads a finding that hitFromObject would accept, exactly as
// it would read it; ok is false for any other value.
func (p *regoProgram) wellFormedHit(pack string, sev finding.Severity, v ast.Value) (Hit, bool) {
	o, ok := v.(ast.Object)
	if !ok {
		return Hit{}, false
	}
	id, ok := stringAt(o, keyRule)
	if !ok || id == "" {
		return Hit{}, false
	}
	if _, known := p.rules[id]; !known {
		return Hit{}, false
	}
	m := o.Get(keyMsg)
	if m == nil {
		m = o.Get(keyMessage)
	}
	if m == nil {
		return Hit{}, false
	}
	msg, ok := m.Value.(ast.String)
	if !ok || msg == "" {
		return Hit{}, false
	}
	h := newHit(id, pack, sev, string(msg))
	if s := o.Get(keySeverity); s != nil {
		str, ok := s.Value.(ast.String)
		if !ok {
			return Hit{}, false
		}
		v, err := finding.ParseSeverity(string(str))
		if err != nil {
			return Hit{}, false
		}
		h.Severity = v
	}
	h.Target = targetOfValue(o)
	h.Path, _ = stringAt(o, keyPath)
	h.Line = intAt(o, keyLine, 0)
	return h, true
}

// targetOfValue is targetOf over an object value.
func targetOfValue(o ast.Object) document.Target {
	if t, ok := stringAt(o, keyTarget); ok {
		return document.Target(t)
	}
	return document.TargetOf(intAt(o, keyMsgIdx, -1), intAt(o, keyCallIdx, -1), intAt(o, keyToolIdx, -1), intAt(o, keyEntryIdx, -1))
}

func stringAt(o ast.Object, k *ast.Term) (string, bool) {
	t := o.Get(k)
	if t == nil {
		return "", false
	}
	s, ok := t.Value.(ast.String)
	return string(s), ok
}

// intAt is intOr over the member's value: a number that is an integer as
// JSON reads it, else def.
func intAt(o ast.Object, k *ast.Term, def int) int {
	t := o.Get(k)
	if t == nil {
		return def
	}
	if n, ok := t.Value.(ast.Number); ok {
		return intOr(json.Number(n), def)
	}
	return def
}

// actionFromValue reads an action a Rego rule produced. Actions come from
// cleanup packs only, and their arguments are Go values: the value is
// converted as rego.Eval converted it and read by actionFromObject.
func (p *regoProgram) actionFromValue(pack string, v ast.Value) (Action, error) {
	g, err := ast.JSON(v)
	if err != nil {
		return Action{}, err
	}
	return actionFromObject(pack, g)
}
