package convert

// Cleanup packs are applied by engine/fix, the machinery of `chatlint fix`:
// the calls into it (and into policy and document for it) are kept in this
// one file.

import (
	"context"
	"fmt"
	"slices"

	"github.com/chatlint/chatlint/engine/builtin"
	"github.com/chatlint/chatlint/engine/document"
	"github.com/chatlint/chatlint/engine/fix"
	"github.com/chatlint/chatlint/engine/jsonl"
	"github.com/chatlint/chatlint/engine/jsonv"
	"github.com/chatlint/chatlint/engine/lint"
	"github.com/chatlint/chatlint/engine/policy"
)

// cleanupEngines are the cleanup packs of a run, each compiled on its own:
// fix runs them as stages on the chat records convert makes of its entries,
// in order (goose first, then each --cleanup pack).
type cleanupEngines struct{ stages *fix.Stages }

// newCleanupEngines compiles the goose pack (unless turned off) and the
// extra cleanup packs; none when there are none.
func newCleanupEngines(ctx context.Context, o *Options) (cleanupEngines, error) {
	packs := o.Cleanup
	if o.CleanupGoose {
		g, err := goosePack()
		if err != nil {
			return cleanupEngines{}, err
		}
		packs = append([]*policy.Pack{g}, packs...)
	}
	if len(packs) == 0 {
		return cleanupEngines{}, nil
	}
	engs := make([]*policy.Engine, len(packs))
	for i, p := range packs {
		eng, err := policy.Compile(ctx, []*policy.Pack{p}, policy.Options{})
		if err != nil {
			return cleanupEngines{}, fmt.Errorf("cleanup pack %s: %w", p.Name, err)
		}
		engs[i] = eng
	}
	return cleanupEngines{stages: fix.OnFormat(document.Chat, engs...)}, nil
}

// goosePack returns the built-in goose cleanup pack.
func goosePack() (*policy.Pack, error) {
	packs, err := builtin.Cleanup()
	if err != nil {
		return nil, err
	}
	for _, p := range packs {
		if p.Name == "goose" {
			return p, nil
		}
	}
	return nil, fmt.Errorf("the built-in goose cleanup pack is missing")
}

// cleaner is one worker's handle on the cleanup packs: the Fixer `chatlint
// fix` runs, with an evaluator per pack.
type cleaner struct{ fixer *fix.Fixer }

// cleaner returns a cleaner for one worker; nil when there are no packs.
func (engs cleanupEngines) cleaner() *cleaner {
	if engs.stages == nil {
		return nil
	}
	return &cleaner{fixer: fix.New(engs.stages, fix.Options{})}
}

// clean runs the cleanup packs over one entry, seen as a chat record
// (input.raw.messages the request messages, input.raw.response the
// response), and returns the entry with the messages fix left, or drop when
// a rule dropped the record. A pack that fails, actions that conflict or a
// record still changing after fix's last pass are an error.
func (c *cleaner) clean(ctx context.Context, e *Entry, file string) (*Entry, bool, error) {
	msgs := make([]jsonv.Value, len(e.Messages))
	for i, m := range e.Messages {
		msgs[i] = m
	}
	rec := &jsonv.Object{Members: []jsonv.Member{{Key: "messages", Value: msgs}}}
	if e.Response != nil {
		rec.Members = append(rec.Members, jsonv.Member{Key: "response", Value: e.Response})
	}
	in := []jsonl.Record{{Line: e.Line, Data: ruleJSON(rec), End: "\n"}}
	out := c.fixer.Fix(ctx, lint.Unit{File: file, Format: document.Chat, Records: in})
	if out.Left != nil {
		return nil, false, fmt.Errorf("%s:%d: cleanup: %w", file, e.Line, out.Left)
	}
	switch {
	case slices.ContainsFunc(out.Notes, func(n fix.Note) bool { return n.Kind == fix.NoteNotJSON }):
		// The rules never saw it: not cleaned is not an option.
		return nil, false, fmt.Errorf("%s:%d: cleanup: internal: the entry's rule form is not a JSON object", file, e.Line)
	case len(out.Records) == 0:
		return nil, true, nil
	case len(out.Records) > 1:
		return nil, false, fmt.Errorf("%s:%d: cleanup: internal: one entry became %d records", file, e.Line, len(out.Records))
	case !out.Changed[0]:
		return e, false, nil
	}
	kept, err := readMessages(out.Records[0].Data, msgs)
	if err != nil {
		return nil, false, fmt.Errorf("%s:%d: cleanup: %w", file, e.Line, err)
	}
	cleaned := *e
	cleaned.Messages = kept
	return &cleaned, false, nil
}

// readMessages reads the messages of the record fix wrote. The rules saw the
// messages in their rule form (non-finite numbers as strings), so what the
// cleanup left as it was is taken from the entry itself (see restore); what
// it changed or added is dumped as the entry model dumps a message, and must
// still be one.
func readMessages(data []byte, orig []jsonv.Value) ([]*jsonv.Object, error) {
	v, err := decodePython(data)
	if err != nil {
		return nil, err
	}
	rec, _ := v.(*jsonv.Object)
	list, ok := get(rec, "messages").([]jsonv.Value)
	if !ok {
		return nil, fmt.Errorf("internal: the cleaned record has no messages list")
	}
	list, same := restoreList(orig, list)
	out := make([]*jsonv.Object, len(list))
	for i, m := range list {
		if same[i] {
			out[i] = m.(*jsonv.Object)
			continue
		}
		d, err := dumpMessage(m, fmt.Sprintf("request.messages[%d]", i))
		if err != nil {
			return nil, fmt.Errorf("the cleanup left an invalid message: %w", err)
		}
		out[i] = d
	}
	return out, nil
}
