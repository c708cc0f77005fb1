package lint

import (
	"slices"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/chatlint/chatlint/engine/document"
	"github.com/chatlint/chatlint/engine/tokens"
)

// The token summary of the dataset document (its "tokens" member): the
// tokens of every example in the model's encoding, counted as package
// tokens counts them. It costs a tokenizer pass over every record, so a
// linter counts only when a dataset rule that applies under its profile may
// read it (policy.Engine.DatasetReadsTokens) and the packs name a model;
// otherwise Facts.Tokens is -1 and the member is null. The fold keeps one
// 4-byte count per example (the median and p95 are exact), as `chatlint
// stats` does.

// tokenCounter returns the counter a linter uses, or nil when it counts
// nothing: the program's counter of the encoding, so that the linters of
// every worker and the dataset fold share one cache of counts (a string
// one worker counted is counted again by none) and one set of tables.
func tokenCounter(reads bool, m *document.Model) *tokens.Counter {
	if !reads || m == nil {
		return nil
	}
	c, err := tokens.Shared(m.Encoding)
	if err != nil { // the model table's loader checks encodings: not reached
		return nil
	}
	return c
}

// exampleTokens counts a document's tokens, or -1 without a counter. It
// counts the document as built (its message views read as the objects they
// stand for), without materializing it.
func exampleTokens(c *tokens.Counter, d *document.Document) int {
	if c == nil {
		return -1
	}
	return c.Document(d.Value)
}

// tokenFold is the part of the fold that sums tokens.
type tokenFold struct {
	counts   []int32
	total    int64
	billable int64 // tokens up to the model's limit per example: what a job trains on
	over     int
}

func (t *tokenFold) add(n, limit int) {
	if n <= 0 { // not counted (an example counts at least its 3 tokens of reply priming)
		return
	}
	t.counts = append(t.counts, int32(n))
	t.total += int64(n)
	t.billable += int64(min(n, limit))
	if n > limit {
		t.over++
	}
}

// term is the "tokens" member: null when nothing was counted.
func (t *tokenFold) term(m *document.Model) *ast.Term {
	if len(t.counts) == 0 || m == nil {
		return ast.NullTerm()
	}
	c := slices.Clone(t.counts)
	slices.Sort(c)
	n := len(c)
	p95 := (n*95 + 99) / 100 // nearest rank
	item := func(k string, v int64) [2]*ast.Term { return ast.Item(ast.StringTerm(k), ast.IntNumberTerm(int(v))) }
	return ast.ObjectTerm(
		ast.Item(ast.StringTerm("encoding"), ast.StringTerm(m.Encoding)),
		item("examples", int64(n)),
		item("min", int64(c[0])),
		item("median", int64(c[(n-1)/2])),
		item("p95", int64(c[max(p95, 1)-1])),
		item("max", int64(c[n-1])),
		item("total", t.total),
		item("billable", t.billable),
		item("over_limit", int64(t.over)),
	)
}
