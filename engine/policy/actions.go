package policy

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"

	"github.com/chatlint/chatlint/engine/document"
)

// Cleanup rules change data: next to the finding sets deny, warn and info a
// Rego package may define a set `actions`, and a YAML rule may carry an
// `action:` map. An action names an operation (op), the rule that asks for
// it, a reason, the element it targets and the operation's arguments; the
// fix command applies them (engine/fix). Rules decide, Go only applies.

// actionSet is the Rego set cleanup rules put their actions in.
const actionSet = "actions"

// Action is one change a cleanup rule asks for.
type Action struct {
	Op     string `json:"op"`
	Rule   string `json:"rule"`
	Pack   string `json:"pack,omitempty"`
	Reason string `json:"reason,omitempty"`
	// Target is a JSON Pointer into the normalized document:
	// "/messages/4", "/messages/3/tool_calls/1", "/entries/2", or "" for the
	// record itself.
	Target document.Target `json:"target,omitempty"`
	// Args are the operation's other members as the rule gave them
	// (content, message, position, after, rank, id), with JSON numbers as
	// json.Number.
	Args map[string]any `json:"args,omitempty"`
}

// targetKeys are the members that say what an action targets; they are not
// passed on as arguments.
var targetKeys = map[string]bool{"op": true, "rule": true, "reason": true, "msg": true, "target": true,
	"message_index": true, "tool_call_index": true, "tool_index": true, "entry_index": true}

// actionFromObject reads an action object a rule produced. The target is the
// `target` pointer when given, else the indexes findings use
// (message_index, tool_call_index, entry_index).
func actionFromObject(pack string, v any) (Action, error) {
	o, ok := v.(map[string]any)
	if !ok {
		return Action{}, fmt.Errorf("pack %s: an action must be an object, got %v", pack, v)
	}
	a := Action{Pack: pack}
	a.Op, _ = o["op"].(string)
	a.Rule, _ = o["rule"].(string)
	if a.Rule == "" || a.Op == "" {
		return Action{}, fmt.Errorf("pack %s: an action needs a rule id and an op: %v", pack, v)
	}
	a.Reason, _ = o["reason"].(string)
	if a.Reason == "" {
		a.Reason, _ = o["msg"].(string)
	}
	a.Target = targetOf(o)
	if !a.Target.Valid() {
		return Action{}, fmt.Errorf("pack %s: rule %s: action target %q is not a message, tool call or entry pointer", pack, a.Rule, a.Target)
	}
	for k, x := range o {
		if !targetKeys[k] {
			if a.Args == nil {
				a.Args = map[string]any{}
			}
			a.Args[k] = x
		}
	}
	return a, nil
}

// actionFromHit turns the hit of a YAML rule with an `action:` into its
// action: the hit names the element, the rule's message is the reason.
func actionFromHit(h Hit, args map[string]any) Action {
	a := Action{Rule: h.Rule, Pack: h.Pack, Reason: h.Message, Target: h.Target}
	for k, v := range args {
		if k == "op" {
			a.Op, _ = v.(string)
			continue
		}
		if a.Args == nil {
			a.Args = map[string]any{}
		}
		a.Args[k] = v
	}
	return a
}

// yamlActions runs the YAML rules that carry an action and appends their
// actions; their hits are findings too, for check.
func (e *Engine) yamlActions(doc *document.Document, hits []Hit, acts []Action) ([]Hit, []Action) {
	for _, r := range e.actions {
		n := len(hits)
		hits = r.Eval(doc.Materialized(), hits)
		for _, h := range hits[n:] {
			acts = append(acts, actionFromHit(h, r.Action))
		}
	}
	return hits, acts
}

// EvaluateActions runs every active rule over one document and returns its
// findings and the actions cleanup rules ask for, sorted (see SortActions).
func (ev *Evaluator) EvaluateActions(ctx context.Context, doc *document.Document) ([]Hit, []Action, error) {
	hits, acts, err := ev.evaluate(ctx, doc)
	SortActions(acts)
	return hits, acts, err
}

// SortActions orders actions by target, op, rule and arguments, so that the
// order in which rules produced them never shows in the result.
func SortActions(acts []Action) {
	key := func(a Action) string {
		args, _ := json.Marshal(a.Args) // map keys are sorted
		return string(a.Target) + "\x00" + a.Op + "\x00" + a.Rule + "\x00" + string(args)
	}
	sort.SliceStable(acts, func(i, j int) bool { return key(acts[i]) < key(acts[j]) })
}
