package openai

import (
	"encoding/json"
	"sort"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/chatlint/chatlint/engine/astjson"
	"github.com/chatlint/chatlint/engine/document"
	"github.com/chatlint/chatlint/engine/tokens"
)

// overLimit notes the examples with more tokens than the model trains on
// per example (Options.Model, from the packs' model table). An example is
// counted as check counts it: read back as a chat record and counted by
// engine/tokens over its normalized document, so the note and check's
// example-too-long agree. The examples are still written: cutting a
// conversation is a decision for its owner (docs/convert.md).
//
// The examples of one document are prefixes of each other (one, or one per
// assistant message with SplitTurns), so their counts never decrease: the
// last is counted, and when it is over the limit a binary search finds the
// first one that is, instead of counting every prefix of a long session.
func (c *converter) overLimit(exs []Example) {
	m := c.opts.Model
	if m == nil || m.Limit <= 0 || len(exs) == 0 {
		return
	}
	counter, err := tokens.NewCounter(m.Encoding)
	if err != nil {
		c.note(c.line, "cannot count the tokens of the examples for %s: %v", m.Name, err)
		return
	}
	count := func(ex Example) int {
		b, err := json.Marshal(ex)
		if err != nil {
			return 0
		}
		v, err := astjson.Decode(b)
		if err != nil {
			return 0
		}
		obj, _ := v.(ast.Object)
		d := document.NewBuilder(document.Chat, "", document.Options{}).Add(1, obj)
		if d == nil {
			return 0
		}
		return counter.Document(d.Materialized())
	}
	most := count(exs[len(exs)-1])
	if most <= m.Limit {
		return
	}
	if len(exs) == 1 {
		c.note(c.line, "the example has about %d tokens; %s trains on at most %d per example (check --profile openai: example-too-long): written as is; shorten or cut the conversation", most, m.Name, m.Limit)
		return
	}
	first := sort.Search(len(exs)-1, func(k int) bool { return count(exs[k]) > m.Limit })
	c.note(c.line, "examples %d to %d of %d have more tokens than %s trains on per example (%d; the last has about %d; check --profile openai: example-too-long): each holds the conversation up to its turn, so splitting by turns does not shorten them: written as is; shorten or cut the conversation", first+1, len(exs), len(exs), m.Name, m.Limit, most)
}
