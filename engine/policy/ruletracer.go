package policy

import (
	"fmt"
	"sync"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/topdown"
)

// ruleTracer remembers the last finding or action rule (deny, warn, info,
// action) evaluation entered, to name the rule that ran out of memory. It
// is only used to evaluate such a document again: tracing costs.
type ruleTracer struct {
	mu   sync.Mutex
	rule *ast.Rule
}

func (t *ruleTracer) Enabled() bool { return true }

func (t *ruleTracer) Config() topdown.TraceConfig { return topdown.TraceConfig{PlugLocalVars: false} }

func (t *ruleTracer) TraceEvent(e topdown.Event) {
	if e.Op != topdown.EnterOp {
		return
	}
	r, ok := e.Node.(*ast.Rule)
	if !ok {
		return
	}
	name := r.Head.Name.String()
	if _, isSet := setSeverity[name]; !isSet && name != actionSet {
		return
	}
	t.mu.Lock()
	t.rule = r
	t.mu.Unlock()
}

// name is the rule's id from its METADATA, else its place in the source.
func (t *ruleTracer) name() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	r := t.rule
	if r == nil {
		return "(unknown)"
	}
	for _, a := range r.Annotations {
		if id, ok := a.Custom["id"].(string); ok && id != "" {
			return id
		}
	}
	if r.Location != nil {
		return fmt.Sprintf("%s at %s:%d", r.Head.Name, r.Location.File, r.Location.Row)
	}
	return r.Head.Name.String()
}
