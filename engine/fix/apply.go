// Package fix applies the actions of cleanup rules to raw records. Rules
// decide over the normalized document; this package maps each generic
// operation back onto the record's own JSON through the line and JSON Pointer
// the document gives every message, tool call and entry, so no rule needs
// code of its own and every input format is served the same way.
//
// Records are edited as jsonv values: a changed record keeps its other
// members, their order and their number text; records no action touches are
// handed back as the same bytes.
package fix

import (
	"bytes"
	"fmt"
	"slices"
	"strings"

	"github.com/chatlint/chatlint/engine/document"
	"github.com/chatlint/chatlint/engine/jsonl"
	"github.com/chatlint/chatlint/engine/jsonv"
	"github.com/chatlint/chatlint/engine/policy"
)

// Reject is a piece of data an action removed, as it was.
type Reject struct {
	// Line is the line the piece came from, as numbered in the records given
	// to Apply (Run maps it back to the source line; 0 for a line an earlier
	// pass inserted).
	Line   int
	Rule   string
	Reason string
	Op     string
	Target string
	// Data is the dropped JSON: the line's bytes for a dropped line, the
	// element re-encoded compactly (order and numbers kept) for a part of one.
	Data []byte
}

// Result is what Apply made of a record or session.
type Result struct {
	// Records are the output records, in order. Source[i] is the index in
	// the input of the record Records[i] came from, or -1 for a record an
	// action inserted; Changed[i] says whether its bytes differ.
	Records []jsonl.Record
	Source  []int
	Changed []bool
	Rejects []Reject
	// Applied are the actions applied, identical actions of several rules
	// counted once (for the first rule in order).
	Applied []policy.Action
}

// ConflictError is two actions that cannot both be applied to one element.
type ConflictError struct {
	Target string
	A, B   policy.Action
}

func (e *ConflictError) Error() string {
	return fmt.Sprintf("conflicting actions on %s: %s (rule %s) and %s (rule %s)", orRecord(e.Target), e.A.Op, e.A.Rule, e.B.Op, e.B.Rule)
}

func orRecord(t string) string {
	if t == "" {
		return "the record"
	}
	return t
}

// Apply applies actions to the records of one document (one record, or the
// lines of a session file) and returns the new records and what was dropped.
// doc must be the document built from recs, with each record's Line as its
// line number. An action that does not fit the document, or two that
// conflict, give an error and no change.
func Apply(doc *document.Document, recs []jsonl.Record, actions []policy.Action) (*Result, error) {
	a := &applier{doc: doc, recs: recs, vals: make([]jsonv.Value, len(recs)), dirty: make([]bool, len(recs)),
		dropped: make([]bool, len(recs)), byLine: make(map[int]int, len(recs))}
	for i, r := range recs {
		a.byLine[r.Line] = i
	}
	a.ms, a.es = readDoc(doc)
	if err := a.parse(actions); err != nil {
		return nil, err
	}
	if k := kept(a.ops); k != nil {
		return nil, k
	}
	if len(a.ops) == 0 {
		return a.result(nil), nil
	}
	if err := a.conflicts(); err != nil {
		return nil, err
	}
	for _, o := range a.ops {
		if o.Op == OpDropRecord {
			return a.dropRecord(o), nil
		}
	}
	var err error
	if a.parts, a.wholeLine, err = a.partDrops(); err != nil {
		return nil, err
	}
	if err := a.collectRejects(); err != nil {
		return nil, err
	}
	if err := a.editInPlace(); err != nil {
		return nil, err
	}
	order, err := a.restructure()
	if err != nil {
		return nil, err
	}
	return a.result(order), nil
}

type applier struct {
	doc     *document.Document
	recs    []jsonl.Record
	vals    []jsonv.Value // decoded records, nil until needed
	dirty   []bool
	dropped []bool
	byLine  map[int]int
	ms      []msgInfo
	es      []entryInfo
	ops     []*op
	rejects []Reject
	// inserted holds the records actions inserted (session layout).
	inserted []jsonv.Value
	// parts are the elements of lists inside session lines to drop (see
	// partDrops); wholeLine the drops of such elements that take the line.
	parts     map[int]map[string][]int
	wholeLine map[*op]bool
}

// partDrop reports whether o drops an element of a list inside a session
// line rather than the line.
func (a *applier) partDrop(o *op) bool {
	if o.Op != OpDropMessage || !a.messageLines() || a.wholeLine[o] {
		return false
	}
	_, _, ok := splitIndex(a.ms[o.msg].path)
	return ok
}

func (a *applier) parse(actions []policy.Action) error {
	seen := map[string]bool{}
	for i, act := range actions {
		o, err := parseOp(act, a.ms, a.es)
		if err != nil {
			return err
		}
		if err := a.toLayout(o); err != nil {
			return err
		}
		if seen[o.key] {
			continue
		}
		seen[o.key] = true
		if same, err := a.unchanged(o); err != nil {
			return err
		} else if same {
			continue
		}
		o.seq = i
		a.ops = append(a.ops, o)
	}
	return nil
}

// unchanged reports whether an operation would leave its element as it is:
// a content set to the content already there, a call given the id it has.
// Such an action asks for nothing, so a rule that asks again once its change
// is made does not keep the record changing.
func (a *applier) unchanged(o *op) (bool, error) {
	switch o.Op {
	case OpRename:
		return a.ms[o.msg].calls[o.call].id == o.id, nil
	case OpSetContent:
		m := a.ms[o.msg]
		_, v, err := a.at(m.line, m.path)
		if err != nil {
			return false, err
		}
		obj, ok := v.(*jsonv.Object)
		if !ok {
			return false, nil // editInPlace says why
		}
		cur, ok := obj.Get(o.member)
		return ok && bytes.Equal(jsonv.Marshal(cur, jsonv.Compact), jsonv.Marshal(o.content, jsonv.Compact)), nil
	}
	return false, nil
}

// conflicts finds two actions that cannot both apply: anything else on a
// message, call or entry that is dropped, two different contents or moves
// for one message, two different ids or a rename and a drop for one call.
// A dropped record wins over everything else (it is the whole record).
func (a *applier) conflicts() error {
	byMsg := map[int][]*op{}
	byLine := map[int]*op{}
	for _, o := range a.ops {
		switch o.kind {
		case targetMessage:
			if o.Op != OpInsert {
				byMsg[o.msg] = append(byMsg[o.msg], o)
			}
		case targetCall:
			byMsg[o.msg] = append(byMsg[o.msg], o)
		case targetEntry:
			byLine[a.es[o.entry].line] = o
		}
	}
	// In message order, so the error names the same pair every time.
	msgs := make([]int, 0, len(byMsg))
	for m := range byMsg {
		msgs = append(msgs, m)
	}
	slices.Sort(msgs)
	for _, m := range msgs {
		ops := byMsg[m]
		if e, ok := byLine[a.ms[m].line]; ok && a.sessionLayout() {
			return &ConflictError{Target: "/messages/" + fmt.Sprint(m), A: e.Action, B: ops[0].Action}
		}
		if !anyClash(ops, a.ms[m]) {
			continue
		}
		for i, x := range ops {
			for _, y := range ops[i+1:] {
				if clash(x, y, a.ms[m]) {
					t := x.Target
					if x.kind != y.kind {
						t = document.TargetOf(m, -1, -1, -1)
					}
					return &ConflictError{Target: string(t), A: x.Action, B: y.Action}
				}
			}
		}
	}
	return nil
}

// anyClash reports whether two of ops clash, as clash says, in one pass:
// a message whose thousands of calls are all renamed would otherwise cost
// a comparison per pair. Only where it finds one are the pairs walked, to
// name the first in order.
func anyClash(ops []*op, m msgInfo) bool {
	drops := 0
	for _, o := range ops {
		if o.Op == OpDropMessage {
			drops++
		}
	}
	if drops > 0 {
		return drops < len(ops) // a drop clashes with anything but a drop
	}
	calls := make(map[int]bool, len(ops))
	opsOnMsg := map[string]bool{}
	inContent, setContent := false, false
	for _, o := range ops {
		switch o.kind {
		case targetCall:
			if calls[o.call] {
				return true
			}
			calls[o.call] = true
			inContent = inContent || strings.Contains(m.calls[o.call].path, "/content/")
		case targetMessage:
			if opsOnMsg[o.Op] {
				return true
			}
			opsOnMsg[o.Op] = true
			setContent = setContent || o.Op == OpSetContent
		}
	}
	return inContent && setContent
}

func clash(x, y *op, m msgInfo) bool {
	if x.Op == OpDropMessage || y.Op == OpDropMessage {
		return x.Op != y.Op
	}
	if x.kind == targetCall && y.kind == targetCall {
		return x.call == y.call // drop and rename, or two renames
	}
	if x.kind == targetMessage && y.kind == targetMessage {
		return x.Op == y.Op // two different contents, two different moves
	}
	// set_content against an edit of a call that lives in the content.
	c, s := x, y
	if c.kind != targetCall {
		c, s = y, x
	}
	return s.Op == OpSetContent && strings.Contains(m.calls[c.call].path, "/content/")
}

// sessionLayout reports whether each message is a line of its own (a
// session entry) rather than an element of an array in a record.
func (a *applier) sessionLayout() bool {
	return a.messageLines() || a.entryLayout() != nil
}

// messageLines reports whether the format's messages are the message
// members of lines of their own without an entry layout (a pi transcript:
// Adapter.MessageLines).
func (a *applier) messageLines() bool {
	ad := document.Lookup(a.doc.Format)
	return ad != nil && ad.MessageLines
}

// entryLayout is the entry layout of a format whose messages are entry
// lines (Claude Code, Codex), or nil.
func (a *applier) entryLayout() *document.EntryLayout {
	if ad := document.Lookup(a.doc.Format); ad != nil {
		return ad.Entries
	}
	return nil
}

// dropsWholeLine reports, in an entry layout, whether the element at ptr is all
// the conversation its line holds: the entry's message itself, or the only
// block of its content. Dropping such an element drops the line, so no
// entry is left with an empty message.
func (a *applier) dropsWholeLine(line int, ptr string) (bool, error) {
	msg := "/" + a.entryLayout().Message
	if ptr == msg {
		return true, nil
	}
	arr, _, ok := splitIndex(ptr)
	if !ok || arr != msg+"/content" {
		return false, nil
	}
	_, v, err := a.at(line, arr)
	if err != nil {
		return false, err
	}
	list, _ := v.([]jsonv.Value)
	return len(list) == 1, nil
}

// line returns the index of the record with the given line number.
func (a *applier) line(n int) (int, error) {
	i, ok := a.byLine[n]
	if !ok {
		return 0, fmt.Errorf("no record at line %d", n)
	}
	return i, nil
}

// value decodes record i on first use.
func (a *applier) value(i int) (jsonv.Value, error) {
	if a.vals[i] == nil {
		v, err := jsonv.Decode(a.recs[i].Data)
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", a.recs[i].Line, err)
		}
		a.vals[i] = v
	}
	return a.vals[i], nil
}

// at returns the record index of message m and the value at its pointer.
func (a *applier) at(line int, ptr string) (int, jsonv.Value, error) {
	i, err := a.line(line)
	if err != nil {
		return 0, nil, err
	}
	root, err := a.value(i)
	if err != nil {
		return 0, nil, err
	}
	v, err := lookup(root, ptr)
	return i, v, err
}

// collectRejects records what will be dropped, before anything changes.
func (a *applier) collectRejects() error {
	lineTaken := map[int]bool{}
	for _, o := range a.ops {
		var line int
		var data []byte
		switch {
		case a.entryLayout() != nil && (o.Op == OpDropMessage || o.Op == OpDropToolCall):
			if err := a.collectEntryRejects(o); err != nil {
				return err
			}
			continue
		case a.partDrop(o):
			line = a.ms[o.msg].line
			_, v, err := a.at(line, a.ms[o.msg].path)
			if err != nil {
				return err
			}
			data = jsonv.Marshal(v, jsonv.Compact)
		case o.Op == OpDropMessage && a.sessionLayout() && lineTaken[a.ms[o.msg].line]:
			continue // the line is in the rejects already, with every element
		case o.Op == OpDropEntry:
			line = a.es[o.entry].line
			i, err := a.line(line)
			if err != nil {
				return err
			}
			data = a.recs[i].Data
		case o.Op == OpDropMessage && a.sessionLayout():
			line = a.ms[o.msg].line
			lineTaken[line] = true
			i, err := a.line(line)
			if err != nil {
				return err
			}
			data = a.recs[i].Data
		case o.Op == OpDropMessage:
			line = a.ms[o.msg].line
			_, v, err := a.at(line, a.ms[o.msg].path)
			if err != nil {
				return err
			}
			data = jsonv.Marshal(v, jsonv.Compact)
		case o.Op == OpDropToolCall:
			line = a.ms[o.msg].calls[o.call].line
			_, v, err := a.at(line, a.ms[o.msg].calls[o.call].path)
			if err != nil {
				return err
			}
			data = jsonv.Marshal(v, jsonv.Compact)
		default:
			continue
		}
		a.rejects = append(a.rejects, Reject{Line: line, Rule: o.Rule, Reason: o.Reason, Op: o.Op, Target: string(o.Target), Data: data})
	}
	return nil
}

// editInPlace applies the operations that change a message where it
// stands: contents, call ids (and the results answering them), dropped
// calls. Every element is found before anything changes, since a dropped
// call shifts the pointers of the calls after it.
func (a *applier) editInPlace() error {
	type drop struct {
		rec   int
		array string // pointer of the array holding the call
		idx   int
		msg   *jsonv.Object
		key   string // the message member holding the array
	}
	var drops []drop
	var edits []func()
	for _, o := range a.ops {
		if o.msg < 0 {
			continue // record and entry operations
		}
		m := a.ms[o.msg]
		switch o.Op {
		case OpSetContent:
			if len(m.lines) > 1 {
				return fmt.Errorf("rule %s: %s %s: the message is written over %d lines; its content cannot be replaced as one", o.Rule, o.Op, o.Target, len(m.lines))
			}
			i, v, err := a.at(m.line, m.path)
			if err != nil {
				return err
			}
			obj, ok := v.(*jsonv.Object)
			if !ok {
				return fmt.Errorf("rule %s: %s %s: the message is not an object", o.Rule, o.Op, o.Target)
			}
			content, key := o.content, o.member
			edits = append(edits, func() { obj.Set(key, content) })
			a.dirty[i] = true
		case OpRename:
			if err := a.rename(o, &edits); err != nil {
				return err
			}
		case OpDropToolCall:
			if o.lines != nil { // the call is its line
				for _, ln := range o.lines {
					i, err := a.line(ln)
					if err != nil {
						return err
					}
					a.dropped[i] = true
				}
				continue
			}
			p := m.calls[o.call].path
			arr, idx, ok := splitIndex(p)
			if !ok {
				return fmt.Errorf("rule %s: %s %s: the call at %s is not an array element", o.Rule, o.Op, o.Target, p)
			}
			i, v, err := a.at(m.calls[o.call].line, m.path)
			if err != nil {
				return err
			}
			obj, _ := v.(*jsonv.Object)
			key := strings.TrimPrefix(arr, m.path+"/")
			if obj == nil || strings.Contains(key, "/") {
				return fmt.Errorf("rule %s: %s %s: the call at %s is not in a list of its message", o.Rule, o.Op, o.Target, p)
			}
			drops = append(drops, drop{rec: i, array: arr, idx: idx, msg: obj, key: key})
			a.dirty[i] = true
		case OpDropMessage:
			if !o.block {
				continue
			}
			// A tool_result block of an entry that holds more: the block goes.
			arr, idx, _ := splitIndex(m.path)
			msgPtr := strings.TrimSuffix(arr, "/content")
			i, v, err := a.at(m.line, msgPtr)
			if err != nil {
				return err
			}
			obj, _ := v.(*jsonv.Object)
			if obj == nil {
				return fmt.Errorf("rule %s: %s %s: the entry's message is not an object", o.Rule, o.Op, o.Target)
			}
			drops = append(drops, drop{rec: i, array: arr, idx: idx, msg: obj, key: "content"})
			a.dirty[i] = true
		}
	}
	for _, e := range edits {
		e()
	}
	// Remove calls from the end of each array, so indexes stay valid.
	slices.SortFunc(drops, func(x, y drop) int {
		if c := strings.Compare(fmt.Sprint(x.rec, x.array), fmt.Sprint(y.rec, y.array)); c != 0 {
			return c
		}
		return y.idx - x.idx
	})
	for _, d := range drops {
		v, _ := d.msg.Get(d.key)
		arr, ok := v.([]jsonv.Value)
		if !ok || d.idx >= len(arr) {
			return fmt.Errorf("line %d: %s is no longer a list", a.recs[d.rec].Line, d.array)
		}
		arr = slices.Delete(slices.Clone(arr), d.idx, d.idx+1)
		if len(arr) == 0 && a.entryLayout() != nil {
			a.dropEmptied(d.rec) // an entry left with nothing goes whole
			continue
		}
		if len(arr) == 0 && d.key == "tool_calls" {
			// An empty tool_calls list is itself invalid for the API.
			d.msg.Delete(d.key)
			continue
		}
		d.msg.Set(d.key, arr)
	}
	return nil
}

// rename gives a call a new id, and the same to the tool results that
// answer it: those the rule lists, or else the results with its old id after
// its message, up to the next message that issues that id again.
func (a *applier) rename(o *op, edits *[]func()) error {
	m := a.ms[o.msg]
	c := m.calls[o.call]
	i, v, err := a.at(c.line, c.path)
	if err != nil {
		return err
	}
	obj, ok := v.(*jsonv.Object)
	if !ok {
		return fmt.Errorf("rule %s: %s %s: the call is not an object", o.Rule, o.Op, o.Target)
	}
	id := o.id
	lay := a.layout()
	if lay != nil && lay.SetCallID != nil {
		if err := lay.SetCallID(jsonv.Clone(obj).(*jsonv.Object), id); err != nil {
			return fmt.Errorf("rule %s: %s %s: %v", o.Rule, o.Op, o.Target, err)
		}
		*edits = append(*edits, func() { _ = lay.SetCallID(obj, id) })
	} else {
		key := document.CallIDMember(func(k string) bool { _, ok := obj.Get(k); return ok })
		*edits = append(*edits, func() { obj.Set(key, id) })
	}
	a.dirty[i] = true
	answers := o.results
	if answers == nil {
		for j := o.msg + 1; j < len(a.ms); j++ {
			r := a.ms[j]
			if slices.ContainsFunc(r.calls, func(x callInfo) bool { return x.id == c.id }) {
				break
			}
			if r.role == "tool" && r.toolCallID == c.id {
				answers = append(answers, j)
			}
		}
	}
	for _, j := range answers {
		r := a.ms[j]
		ri, rv, err := a.at(r.line, r.path)
		if err != nil {
			return err
		}
		ro, ok := rv.(*jsonv.Object)
		if !ok {
			continue
		}
		if lay != nil && lay.SetResultID != nil {
			if err := lay.SetResultID(jsonv.Clone(ro).(*jsonv.Object), id); err != nil {
				return fmt.Errorf("rule %s: %s %s: result %d: %v", o.Rule, o.Op, o.Target, j, err)
			}
			*edits = append(*edits, func() { _ = lay.SetResultID(ro, id) })
			a.dirty[ri] = true
			continue
		}
		for _, k := range document.ResultIDMembers() {
			if x, ok := ro.Get(k); ok && x == c.id {
				k := k
				*edits = append(*edits, func() { ro.Set(k, id) })
			}
		}
		a.dirty[ri] = true
	}
	return nil
}

// collectEntryRejects records what a drop takes in an entry layout: the
// lines of a message or call that is all its lines hold (each line goes to
// the rejects as it was), or else the block.
func (a *applier) collectEntryRejects(o *op) error {
	m := a.ms[o.msg]
	line, ptr, lines := m.line, m.path, m.lines
	if o.Op == OpDropToolCall {
		c := m.calls[o.call]
		line, ptr, lines = c.line, c.path, []int{c.line}
	}
	whole, err := a.dropsWholeLine(line, ptr)
	if err != nil {
		return err
	}
	if !whole {
		_, v, err := a.at(line, ptr)
		if err != nil {
			return err
		}
		o.block = o.Op == OpDropMessage
		a.rejects = append(a.rejects, Reject{Line: line, Rule: o.Rule, Reason: o.Reason, Op: o.Op, Target: string(o.Target), Data: jsonv.Marshal(v, jsonv.Compact)})
		return nil
	}
	o.lines = lines
	for _, ln := range lines {
		i, err := a.line(ln)
		if err != nil {
			return err
		}
		a.rejects = append(a.rejects, Reject{Line: ln, Rule: o.Rule, Reason: o.Reason, Op: o.Op, Target: string(o.Target), Data: a.recs[i].Data})
	}
	return nil
}

// dropEmptied drops an entry line whose blocks were all removed: the line
// goes to the rejects whole, in place of its blocks, so that nothing of it
// (its uuid, its other members) is lost.
func (a *applier) dropEmptied(rec int) {
	a.dropped[rec] = true
	line := a.recs[rec].Line
	var first *Reject
	kept := a.rejects[:0]
	for _, r := range a.rejects {
		if r.Line == line {
			if first == nil {
				r := r
				first = &r
			}
			continue
		}
		kept = append(kept, r)
	}
	a.rejects = kept
	if first != nil {
		first.Data = a.recs[rec].Data
		a.rejects = append(a.rejects, *first)
	}
}

// dropRecord drops every record of the document.
func (a *applier) dropRecord(o *op) *Result {
	for i, r := range a.recs {
		a.dropped[i] = true
		a.rejects = append(a.rejects, Reject{Line: r.Line, Rule: o.Rule, Reason: o.Reason, Op: o.Op, Target: string(o.Target), Data: r.Data})
	}
	a.ops = []*op{o}
	return a.result(nil)
}

// result builds the output: order lists the records (indexes into recs, or
// -1-k for the k-th inserted record), nil meaning every record kept in order.
func (a *applier) result(order []int) *Result {
	if order == nil {
		for i := range a.recs {
			if !a.dropped[i] {
				order = append(order, i)
			}
		}
	}
	res := &Result{Rejects: a.rejects}
	for _, o := range a.ops {
		res.Applied = append(res.Applied, o.Action)
	}
	for n, i := range order {
		var rec jsonl.Record
		changed := false
		src := i
		if i < 0 {
			src = -1
			rec = jsonl.Record{Data: jsonv.Marshal(a.inserted[-1-i], jsonv.Compact), End: "\n"}
			changed = true
		} else {
			rec = a.recs[i]
			if a.dirty[i] {
				rec.Data = jsonv.Marshal(a.vals[i], jsonv.Compact)
				changed = true
			}
		}
		// A last line without a newline that is no longer last gets one.
		if rec.End == "" && n < len(order)-1 {
			rec.End = "\n"
			changed = true
		}
		res.Records = append(res.Records, rec)
		res.Source = append(res.Source, src)
		res.Changed = append(res.Changed, changed)
	}
	return res
}
