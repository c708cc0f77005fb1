package policy

import (
	"bytes"

	"github.com/open-policy-agent/opa/v1/ast"
)

// Which members of the document the active rules read, so that the
// normalizer can leave out what none reads (document.Options.SkipLookup).
// The answer must never be "no" for a member a rule reads: a rule would
// then see it absent and silently stop firing. So every doubt counts as a
// read: a Rego reference to input that is not input.<member> with a constant
// member (input itself, input[x]), and any YAML file that mentions the
// member's name at all.

// ReadsLookup reports whether an active rule may read the document's
// lookup member.
func (e *Engine) ReadsLookup() bool { return e.readsLookup }

// inputReads is what a module may read of input: all of it (input as a
// value, or a member named by a variable), or the members named.
type inputReads struct {
	all     bool
	members map[string]bool
}

func (r inputReads) reads(member string) bool { return r.all || r.members[member] }

// regoInputReads finds what m may read of input in one walk of the module
// (compiling asks about several members of every module).
func regoInputReads(m *ast.Module) inputReads {
	var out inputReads
	input := ast.InputRootDocument.Value.(ast.Var)
	vis := ast.NewGenericVisitor(func(x any) bool {
		if out.all {
			return true
		}
		switch x := x.(type) {
		case ast.Ref:
			if len(x) == 0 || x[0].Value != ast.Value(input) {
				return false
			}
			if len(x) == 1 {
				out.all = true
			} else if s, ok := x[1].Value.(ast.String); !ok {
				out.all = true
			} else {
				if out.members == nil {
					out.members = map[string]bool{}
				}
				out.members[string(s)] = true
			}
			return true // the head is input: its var is not a bare input
		case ast.Var:
			if x == input { // input itself, as a value
				out.all = true
			}
		}
		return false
	})
	vis.Walk(m)
	return out
}

// yamlReads reports whether a YAML rule file may read member: whether it
// names it anywhere, comments included.
func yamlReads(src []byte, member string) bool {
	return bytes.Contains(src, []byte(member))
}
