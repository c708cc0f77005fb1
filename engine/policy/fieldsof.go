package policy

import "github.com/chatlint/chatlint/engine/document"

// FieldsOf returns what the rules of engs may read of a document of the
// format under the profile, each engine's as FieldsFor says, and the
// members also names (paths of member names, "*" any element), read whole:
// fix builds one document that its stages' engines evaluate in turn and
// that it then reads itself to apply their actions. Nil (every member)
// when a Rego program does not compile: the evaluation reports it.
func FieldsOf(format, profile string, also [][]string, engs ...*Engine) *document.Fields {
	rego := &readTree{}
	raw := &readTree{}
	var yaml []*fieldSet
	for _, e := range engs {
		if e.parts == nil {
			return nil
		}
		yaml = append(yaml, e.parts.yamlReads)
		raw.merge(nil, &e.parts.yamlReads.tree)
		raw.merge(nil, e.parts.yamlRaw)
		if !e.hasRego || !e.regoScope.open(format, profileOf(profile)) {
			continue
		}
		ep := e.programOf(docKey{format: format, profile: profileOf(profile)})
		if ep == nil || ep.err != nil {
			return nil
		}
		rego.merge(nil, ep.reads)
		yaml = append(yaml, e.parts.gateReads)
		raw.merge(nil, &e.parts.gateReads.tree)
		raw.merge(nil, e.parts.gateRaw)
	}
	if len(yaml) == 0 {
		return nil
	}
	for _, p := range also {
		rego.add(p, true)
	}
	f := document.NewFields(fieldReads(rego, yaml...).reads)
	// Unlike Engine.Fields, what the Rego rules read of raw bounds what is
	// built of it: their analysis follows each part of raw through the
	// refs, functions and rules that read it, and a part only a kind test
	// reads is read for its kind, as a YAML shape test's is (a member a
	// rule iterates, "*", keeps every member of an object too).
	raw.merge(nil, rego)
	return f.WithRaw(rawTrees(raw))
}
