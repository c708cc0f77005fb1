package fix

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/chatlint/chatlint/engine/jsonv"
	"github.com/chatlint/chatlint/engine/policy"
)

// The operations cleanup rules may ask for. Each is generic: it names an
// element of the normalized document, and the applier maps it back onto the
// raw record(s) through the element's line and JSON Pointer.
const (
	OpDropMessage  = "drop_message"        // remove a message (to rejects)
	OpDropToolCall = "drop_tool_call"      // remove one tool call of a message (to rejects)
	OpSetContent   = "set_content"         // replace a message's content with `content`
	OpInsert       = "insert_message"      // insert `message` after (or `position: before`) the target message
	OpMove         = "move_message"        // move the target message to right after the message `after`
	OpRename       = "rename_tool_call_id" // give a tool call the id `id`, and the results that answer it (or those listed in `results`)
	OpDropRecord   = "drop_record"         // remove the whole record (or session) (to rejects)
	OpDropEntry    = "drop_entry"          // remove a session entry (a line) (to rejects)
	// OpKeepRecord (keep.go): leave the record as it is, with a note.
)

// Ops lists the operations, for documentation and error messages.
var Ops = []string{OpDropMessage, OpDropToolCall, OpSetContent, OpInsert, OpMove, OpRename, OpDropRecord, OpDropEntry, OpKeepRecord}

type targetKind int

const (
	targetRecord targetKind = iota
	targetMessage
	targetCall
	targetEntry
)

// op is an action checked against the document, with its arguments read.
type op struct {
	policy.Action
	seq       int // position among the record's actions, for a stable order
	kind      targetKind
	msg, call int
	entry     int
	content   jsonv.Value
	member    string // set_content: the member of the element it replaces
	message   jsonv.Value
	before    bool
	anchor    int // move_message: the message to move after
	rank      float64
	id        string
	results   []int  // rename_tool_call_id: the results to rename; nil means find them
	key       string // op, target and arguments: identical actions of two rules are one
	// Entry layouts: block is a dropped message that is a block of an entry
	// holding more (removed in place); lines are the lines a drop takes whole.
	block bool
	lines []int
}

func (o *op) String() string {
	return fmt.Sprintf("%s by rule %s", o.Op, o.Rule)
}

// parseOp checks one action against the document.
func parseOp(a policy.Action, ms []msgInfo, es []entryInfo) (*op, error) {
	o := &op{Action: a, msg: -1, call: -1, entry: -1, anchor: -1}
	fail := func(format string, args ...any) (*op, error) {
		return nil, fmt.Errorf("rule %s: %s %s: %s", a.Rule, a.Op, a.Target, fmt.Sprintf(format, args...))
	}
	if err := o.parseTarget(ms, es); err != nil {
		return fail("%v", err)
	}
	want := map[string]targetKind{OpDropMessage: targetMessage, OpDropToolCall: targetCall, OpSetContent: targetMessage,
		OpInsert: targetMessage, OpMove: targetMessage, OpRename: targetCall, OpDropRecord: targetRecord, OpDropEntry: targetEntry,
		OpKeepRecord: targetRecord}
	k, known := want[a.Op]
	if !known {
		return fail("unknown op (want one of %s)", strings.Join(Ops, ", "))
	}
	if k != o.kind {
		return fail("needs a target of the form %s", [...]string{`"" (the record)`, "/messages/N", "/messages/N/tool_calls/K", "/entries/N"}[k])
	}
	var err error
	switch a.Op {
	case OpSetContent:
		c, ok := a.Args["content"]
		if !ok {
			return fail("needs content")
		}
		if o.content, err = fromRule(c); err != nil {
			return fail("content: %v", err)
		}
	case OpInsert:
		m, ok := a.Args["message"].(map[string]any)
		if !ok {
			return fail("needs a message object")
		}
		if o.message, err = fromRule(m); err != nil {
			return fail("message: %v", err)
		}
		switch p := a.Args["position"]; p {
		case nil, "after":
		case "before":
			o.before = true
		default:
			return fail("position must be after or before, not %v", p)
		}
	case OpMove:
		switch x := a.Args["after"].(type) {
		case string:
			o.anchor, err = messageIndex(x, len(ms))
		default:
			o.anchor, err = index(x, len(ms))
		}
		if err != nil {
			return fail("after: %v", err)
		}
		if o.anchor == o.msg {
			return fail("cannot move a message after itself")
		}
	case OpRename:
		id, _ := a.Args["id"].(string)
		if id == "" {
			return fail("needs a non-empty string id")
		}
		o.id = id
		if rs, ok := a.Args["results"]; ok {
			list, ok := rs.([]any)
			if !ok {
				return fail("results must be a list of message indexes")
			}
			o.results = []int{}
			for _, x := range list {
				i, err := index(x, len(ms))
				if err != nil {
					return fail("results: %v", err)
				}
				o.results = append(o.results, i)
			}
		}
	}
	if r, ok := a.Args["rank"]; ok {
		f, err := number(r)
		if err != nil {
			return fail("rank: %v", err)
		}
		o.rank = f
	}
	args, _ := json.Marshal(a.Args)
	o.key = a.Op + "\x00" + string(a.Target) + "\x00" + string(args)
	return o, nil
}

// parseTarget reads "", "/messages/N", "/messages/N/tool_calls/K" or
// "/entries/N" through document.Target, which owns that grammar; a tool
// (/tools/N) is no target of an action.
func (o *op) parseTarget(ms []msgInfo, es []entryInfo) error {
	t := o.Target
	m, isMsg := t.Message()
	c, isCall := t.ToolCall()
	e, isEntry := t.Entry()
	var err error
	switch {
	case t == "":
		o.kind = targetRecord
	case !t.Valid():
		return errUnknownTarget
	case isCall:
		o.kind = targetCall
		if o.msg, err = index(m, len(ms)); err == nil {
			o.call, err = index(c, len(ms[o.msg].calls))
		}
	case isMsg:
		o.kind = targetMessage
		o.msg, err = index(m, len(ms))
	case isEntry:
		o.kind = targetEntry
		o.entry, err = index(e, len(es))
	default:
		return errUnknownTarget
	}
	return err
}

var errUnknownTarget = errors.New("unknown target (want \"\", /messages/N, /messages/N/tool_calls/K or /entries/N)")

func messageIndex(p string, n int) (int, error) {
	rest, ok := strings.CutPrefix(p, "/messages/")
	if !ok {
		return 0, fmt.Errorf("want /messages/N, not %q", p)
	}
	return index(rest, n)
}

// index reads an index (a number or its decimal text) below n.
func index(v any, n int) (int, error) {
	var i int
	switch x := v.(type) {
	case string:
		var err error
		if i, err = strconv.Atoi(x); err != nil {
			return 0, fmt.Errorf("%q is not an index", x)
		}
	default:
		f, err := number(v)
		if err != nil || f != float64(int(f)) {
			return 0, fmt.Errorf("%v is not an index", v)
		}
		i = int(f)
	}
	if i < 0 || i >= n {
		return 0, fmt.Errorf("index %d out of range (%d)", i, n)
	}
	return i, nil
}

func number(v any) (float64, error) {
	switch x := v.(type) {
	case json.Number:
		return x.Float64()
	case int:
		return float64(x), nil
	case float64:
		return x, nil
	}
	return 0, fmt.Errorf("%v is not a number", v)
}
