package policy

import (
	"context"
	"fmt"

	"github.com/open-policy-agent/opa/v1/topdown"

	"github.com/chatlint/chatlint/engine/document"
	"github.com/chatlint/chatlint/engine/policy/builtins"
	"github.com/chatlint/chatlint/engine/policy/yamlrule"
)

// evaluateRecovered is evaluate with a panic in a rule's evaluation (OPA's,
// a custom function's, the compiled YAML's) turned into the document's
// error: the record is reported as not checked, with file and line, and the
// run goes on with the next one instead of the whole process dying on one
// record.
func (e *Engine) evaluateRecovered(ctx context.Context, doc *document.Document, cancel topdown.Cancel, tracer topdown.QueryTracer, rc *yamlrule.Cache, run *regoRun) (hits []Hit, acts []Action, err error) {
	defer func() {
		if r := recover(); r != nil {
			hits, acts = nil, nil
			if le, ok := r.(*builtins.SchemaLimitError); ok { // a bound, not a bug (schemabounds.go)
				err = le
				return
			}
			err = fmt.Errorf("internal error evaluating policies: %v; the document was not checked", r)
		}
	}()
	return e.evaluate(ctx, doc, cancel, tracer, rc, run)
}

// docWork is doc.Work(), or 1 when reading the document panics (it reads
// every message): the evaluation then meets the same fault under
// evaluateRecovered and reports it as the document's error.
func docWork(doc *document.Document) (n int) {
	defer func() {
		if recover() != nil {
			n = 1
		}
	}()
	return doc.Work()
}
