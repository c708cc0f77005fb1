package convert

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/chatlint/chatlint/engine/jsonv"
)

// Cleaner cleans one log entry before validation: it returns the entry with
// its request messages cleaned, or drop when the whole entry must go.
type Cleaner interface {
	Clean(ctx context.Context, e *Entry, file string) (kept *Entry, drop bool, err error)
}

// Action is one edit a cleanup rule asks for.
type Action struct {
	Op           string
	MessageIndex int // -1 when the action names no message
	Content      jsonv.Value
	Rule, Reason string
}

// applyActions applies the ops convert knows to an entry: set_content and
// drop_message on request messages (indexes name the messages as the rules
// saw them), drop_record (or drop_entry) on the entry.
func applyActions(e *Entry, actions []Action) (*Entry, bool, error) {
	drop := map[int]bool{}
	set := map[int]jsonv.Value{}
	for _, a := range actions {
		switch a.Op {
		case "drop_record", "drop_entry":
			return nil, true, nil
		case "drop_message", "set_content":
			if a.MessageIndex < 0 || a.MessageIndex >= len(e.Messages) {
				return nil, false, fmt.Errorf("rule %s: %s names message %d, but the entry has %d", a.Rule, a.Op, a.MessageIndex, len(e.Messages))
			}
			if a.Op == "drop_message" {
				drop[a.MessageIndex] = true
			} else {
				set[a.MessageIndex] = a.Content
			}
		default:
			return nil, false, fmt.Errorf("rule %s: convert cannot apply op %q (it applies drop_message, set_content and drop_record)", a.Rule, a.Op)
		}
	}
	if len(drop) == 0 && len(set) == 0 {
		return e, false, nil
	}
	out := *e
	out.Messages = make([]*jsonv.Object, 0, len(e.Messages))
	for i, m := range e.Messages {
		if drop[i] {
			continue
		}
		if c, ok := set[i]; ok {
			m = &jsonv.Object{Members: append([]jsonv.Member(nil), m.Members...)}
			m.Set("content", c)
		}
		out.Messages = append(out.Messages, m)
	}
	return &out, false, nil
}

// decodeActions reads the action objects a pack produced, in a stable order.
func decodeActions(pack string, set []any) ([]Action, error) {
	out := make([]Action, 0, len(set))
	for _, item := range set {
		o, ok := item.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("pack %s: an action must be an object, got %v", pack, item)
		}
		a := Action{MessageIndex: -1}
		a.Op, _ = o["op"].(string)
		a.Rule, _ = o["rule"].(string)
		a.Reason, _ = o["reason"].(string)
		if a.Op == "" || a.Rule == "" {
			return nil, fmt.Errorf("pack %s: an action needs an op and a rule: %v", pack, item)
		}
		if n, ok := o["message_index"].(json.Number); ok {
			i, err := n.Int64()
			if err != nil {
				return nil, fmt.Errorf("pack %s: rule %s: message_index %v is not an integer", pack, a.Rule, n)
			}
			a.MessageIndex = int(i)
		} else if t, ok := o["target"].(string); ok {
			i, err := strconv.Atoi(strings.TrimPrefix(t, "/messages/"))
			if err != nil || !strings.HasPrefix(t, "/messages/") {
				return nil, fmt.Errorf("pack %s: rule %s: target %q is not /messages/N", pack, a.Rule, t)
			}
			a.MessageIndex = i
		}
		if c, ok := o["content"]; ok {
			b, err := json.Marshal(c)
			if err != nil {
				return nil, err
			}
			if a.Content, err = decodePython(b); err != nil {
				return nil, err
			}
		}
		out = append(out, a)
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].MessageIndex != out[j].MessageIndex {
			return out[i].MessageIndex < out[j].MessageIndex
		}
		return out[i].Rule < out[j].Rule
	})
	return out, nil
}

// chain applies cleaners one after the other.
type chain []Cleaner

func (c chain) Clean(ctx context.Context, e *Entry, file string) (*Entry, bool, error) {
	for _, cl := range c {
		var drop bool
		var err error
		if e, drop, err = cl.Clean(ctx, e, file); err != nil || drop {
			return nil, drop, err
		}
	}
	return e, false, nil
}
