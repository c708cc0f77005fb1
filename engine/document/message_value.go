package document

import (
	"sync"

	"github.com/chatlint/chatlint/engine/astjson"
	"github.com/open-policy-agent/opa/v1/ast"
)

// A pruned message (check, Options.Fields) is read by the compiled YAML
// rules only: no Rego runs on chat documents under the default profile.
// Building it as an OPA object cost a tenth of check's CPU: OPA's object
// always makes a Go map (a swiss table past 8 members) and hashes every key
// on insert, and each rule's lookup hashes the key again. A MessageValue
// holds the message's member terms in fixed slots instead, answers Get and
// Len from them, and builds the object prunedMessage builds (the same
// members, in the same order, the same terms) the first time anything else
// is asked of it. Everything outside the YAML evaluator reads
// Document.Materialized, where the messages are those objects.
//
// A MessageValue is an ast.Object: it embeds the interface, holding the
// built object once there is one, so every type switch and assertion on
// ast.Object takes it, and it overrides every exported method of Object
// and Value. The one method it cannot override, Object's unexported get,
// OPA never calls on an Object (its own lazy object returns nil there).
// OPA's *object methods do not know it (object.Compare(view) panics,
// object.Equal(view) is false); code that compares values of a document
// that may hold views calls Plain first (policy's compareValues).

// Message member slots, in the order prunedMessage adds them.
const (
	slotIndex = iota
	slotRole
	slotText
	slotHasContent
	slotToolCalls
	slotTurn
	slotLine
	slotPath
	slotRaw
	slotToolCallID
	slotStopReason
	slotIsError
	slotLines
	msgSlots
)

// msgSlotKeys are the member names of the slots.
var msgSlotKeys = [msgSlots]*ast.Term{
	KeyIndex, keyRole, keyText, keyHasContent, KeyToolCalls, keyTurn, KeyLine,
	KeyPath, KeyRaw, keyToolCallID, keyStopReason, keyIsError, keyLines,
}

// msgSlotKeyHashes are the hashes of msgSlotKeys.
var msgSlotKeyHashes = func() (h [msgSlots]int) {
	for s, k := range msgSlotKeys {
		h[s] = k.Hash()
	}
	return h
}()

// msgSlot is the slot of member name k, or -1.
func msgSlot(k string) int {
	switch k {
	case "index":
		return slotIndex
	case "role":
		return slotRole
	case "text":
		return slotText
	case "has_content":
		return slotHasContent
	case "tool_calls":
		return slotToolCalls
	case "turn":
		return slotTurn
	case "line":
		return slotLine
	case "path":
		return slotPath
	case "raw":
		return slotRaw
	case "tool_call_id":
		return slotToolCallID
	case "stop_reason":
		return slotStopReason
	case "is_error":
		return slotIsError
	case "lines":
		return slotLines
	}
	return -1
}

// MessageValue is a normalized message of a pruned document, read by slot
// (see above).
type MessageValue struct {
	// Object is the built object, nil until something needs it.
	ast.Object
	once  sync.Once
	slots [msgSlots]*ast.Term // nil: the message has no such member
	// inserted is set once a member was inserted (Insert): the object is
	// then the truth, not the slots.
	inserted bool
	// hashed says hash is the slots' hash, taken when they were filled
	// (prunedView), where the message's numbers and pointer are known
	// without reading them back from their terms.
	hashed bool
	hash   int
}

// MessageSlot is the slot of member name k in a MessageValue, or -1 when no
// message has that member: the YAML evaluator resolves its paths' member
// names to slots when it compiles them.
func MessageSlot(k string) int { return msgSlot(k) }

// Member is Get(k) for the member name k whose slot (MessageSlot) is
// slot, read without matching the name: the YAML evaluator resolves its
// paths' names to slots when it compiles them.
func (v *MessageValue) Member(slot int, k *ast.Term) *ast.Term {
	if slot < 0 || v.inserted {
		return v.Get(k)
	}
	return v.slots[slot]
}

// Materialize returns the OPA object prunedMessage builds for this message,
// building it on first use.
func (v *MessageValue) Materialize() ast.Object {
	v.once.Do(func() { v.Object = slotsObject(&v.slots) })
	return v.Object
}

// slotsObject is the object of the members in slots s, in slot order.
func slotsObject(s *[msgSlots]*ast.Term) ast.Object {
	var kv [msgSlots][2]*ast.Term
	n := 0
	for i, t := range s {
		if t != nil {
			switch v := t.Value.(type) {
			case *astjson.ObjectView: // the raw message
				t = ast.NewTerm(v.Materialize())
			case *ast.Array: // the calls, views (addPrunedCall)
				if p := astjson.PlainArray(v); p != v {
					t = ast.NewTerm(p)
				}
			}
			kv[n] = [2]*ast.Term{msgSlotKeys[i], t}
			n++
		}
	}
	return ast.NewObject(kv[:n]...)
}

// Plain returns v with the MessageValues in it replaced by their objects,
// for OPA's Compare and Equal, which do not know them: v itself when it
// holds none. Views are found where a pruned document has them: v itself, an
// element of an array (the messages), or an element of an object's
// messages array (the document).
func Plain(v ast.Value) ast.Value {
	switch x := v.(type) {
	case *MessageValue:
		return x.Materialize()
	case *astjson.ObjectView:
		return x.Materialize()
	case *ast.Array:
		return plainArray(x)
	case ast.Object:
		return materialize(x)
	}
	return v
}

// plainArray is arr with its views replaced by their objects.
func plainArray(arr *ast.Array) *ast.Array {
	var out []*ast.Term
	for i := 0; i < arr.Len(); i++ {
		e := arr.Elem(i)
		var o ast.Object
		switch v := e.Value.(type) {
		case *MessageValue:
			o = v.Materialize()
		case *astjson.ObjectView:
			o = v.Materialize()
		case ast.Object:
			// A whole message of a Codex rollout decoded as views holds
			// its payload, a view, as raw, and its calls as views.
			if r := v.Get(KeyRaw); r != nil {
				if rv, ok := r.Value.(*astjson.ObjectView); ok {
					o = v.Copy()
					o.Insert(KeyRaw, ast.NewTerm(rv.Materialize()))
				}
			}
			if c := v.Get(KeyToolCalls); c != nil {
				if ca, ok := c.Value.(*ast.Array); ok {
					if p := astjson.PlainArray(ca); p != ca {
						if o == nil {
							o = v.Copy()
						}
						o.Insert(KeyToolCalls, ast.NewTerm(p))
					}
				}
			}
		}
		if o != nil {
			if out == nil {
				out = make([]*ast.Term, arr.Len())
				for j := 0; j < i; j++ {
					out[j] = arr.Elem(j)
				}
			}
			e = ast.NewTerm(o)
		}
		if out != nil {
			out[i] = e
		}
	}
	if out == nil {
		return arr
	}
	return ast.NewArray(out...)
}

// Get reads the slot of a member name; a message has no other member.
func (v *MessageValue) Get(k *ast.Term) *ast.Term {
	if v.inserted {
		return v.Object.Get(k)
	}
	s, ok := k.Value.(ast.String)
	if !ok {
		return nil
	}
	i := msgSlot(string(s))
	if i < 0 {
		return nil
	}
	return v.slots[i]
}

// Len counts the members.
func (v *MessageValue) Len() int {
	if v.inserted {
		return v.Object.Len()
	}
	n := 0
	for _, t := range v.slots {
		if t != nil {
			n++
		}
	}
	return n
}

// Insert adds a member to the built object; the slots are no longer read.
func (v *MessageValue) Insert(k, t *ast.Term) {
	v.Materialize().Insert(k, t)
	v.inserted = true
}

// The other methods of ast.Value and ast.Object answer from the built
// object.

func (v *MessageValue) Compare(other ast.Value) int {
	return ast.Compare(v.Materialize(), Plain(other))
}
func (v *MessageValue) Find(path ast.Ref) (ast.Value, error) { return v.Materialize().Find(path) }

// Hash is the hash of the built object, from the slots: ast.NewArray hashes
// every element, so the messages array asks every view. OPA's object hash
// is the sum of its keys' and values' hashes.
func (v *MessageValue) Hash() int {
	if v.inserted {
		return v.Object.Hash()
	}
	if v.hashed {
		return v.hash
	}
	h := 0
	for s, t := range v.slots {
		if t == nil {
			continue
		}
		if n, ok := t.Value.(ast.Number); ok {
			h += msgSlotKeyHashes[s] + numberHash(n)
		} else {
			h += msgSlotKeyHashes[s] + t.Value.Hash()
		}
	}
	return h
}

// numberHash is n.Hash() without OPA's float parse for an integer of at
// most 15 digits (a message's index, turn and line): such an integer is
// exact as a float64, so the int of its float is the integer itself. Every
// view's hash is taken when the messages array is built, and a line number
// of four digits or more sends OPA's Number.Hash through ParseFloat.
func numberHash(n ast.Number) int {
	d := string(n)
	neg := len(d) > 0 && d[0] == '-'
	if neg {
		d = d[1:]
	}
	if len(d) == 0 || len(d) > 15 {
		return n.Hash()
	}
	x := 0
	for i := 0; i < len(d); i++ {
		c := d[i]
		if c < '0' || c > '9' {
			return n.Hash()
		}
		x = x*10 + int(c-'0')
	}
	if neg {
		return -x
	}
	return x
}

// IsGround is the built object's: ast.NewArray asks every element. Every
// slot holds a value decoded from JSON or one the builder made (numbers,
// strings, booleans, arrays and objects of them), and no such value holds a
// variable, so a view is ground until something is inserted.
func (v *MessageValue) IsGround() bool {
	if v.inserted {
		return v.Object.IsGround()
	}
	return true
}

func (v *MessageValue) String() string    { return v.Materialize().String() }
func (v *MessageValue) StringLength() int { return v.Materialize().StringLength() }
func (v *MessageValue) Copy() ast.Object  { return v.Materialize().Copy() }
func (v *MessageValue) Iter(f func(*ast.Term, *ast.Term) error) error {
	return v.Materialize().Iter(f)
}
func (v *MessageValue) Until(f func(*ast.Term, *ast.Term) bool) bool {
	return v.Materialize().Until(f)
}
func (v *MessageValue) Foreach(f func(*ast.Term, *ast.Term)) { v.Materialize().Foreach(f) }
func (v *MessageValue) Map(f func(*ast.Term, *ast.Term) (*ast.Term, *ast.Term, error)) (ast.Object, error) {
	return v.Materialize().Map(f)
}
func (v *MessageValue) Diff(other ast.Object) ast.Object {
	return v.Materialize().Diff(plainObject(other))
}
func (v *MessageValue) Intersect(other ast.Object) [][3]*ast.Term {
	return v.Materialize().Intersect(plainObject(other))
}
func (v *MessageValue) Merge(other ast.Object) (ast.Object, bool) {
	return v.Materialize().Merge(plainObject(other))
}
func (v *MessageValue) MergeWith(other ast.Object, f func(v1, v2 *ast.Term) (*ast.Term, bool)) (ast.Object, bool) {
	return v.Materialize().MergeWith(plainObject(other), f)
}
func (v *MessageValue) Filter(filter ast.Object) (ast.Object, error) {
	return v.Materialize().Filter(plainObject(filter))
}
func (v *MessageValue) Keys() []*ast.Term                    { return v.Materialize().Keys() }
func (v *MessageValue) KeysIterator() ast.ObjectKeysIterator { return v.Materialize().KeysIterator() }
func plainObject(o ast.Object) ast.Object {
	if m, ok := o.(*MessageValue); ok {
		return m.Materialize()
	}
	return o
}

// prunedView is the pruned message m as a MessageValue, or as an OPA object
// under f.plainMessages. The views of a record are taken from *views, a
// block of n allocated on first use (they live as long as the messages
// array that holds them), unless messages may be shared (f.shared): then
// most need no view, and each that does gets one of its own.
func prunedView(views *[]MessageValue, n int, m *message, i, turn int, calls, lineTerm *ast.Term, f *Fields) ast.Value {
	if f.plainMessages {
		return prunedMessage(m, i, turn, calls, lineTerm, f)
	}
	var v *MessageValue
	switch {
	case f.shared != nil:
		v = new(MessageValue)
	case *views == nil:
		*views = make([]MessageValue, n)
		fallthrough
	default:
		v = &(*views)[i]
	}
	prunedSlots(&v.slots, m, i, turn, calls, lineTerm, f)
	v.hash, v.hashed = v.slotsHash(m, i, turn), true
	return v
}

// slotsHash is Hash of the slots prunedSlots filled for message m at index
// i and turn, whose index, turn and line slots hold intTerm's terms of i,
// turn and m.line (buildMessagesFields' lineTerm): those are added as the
// integers they are (an integer's hash is itself, numberHash), a chat
// message's pointer by its hash kept beside it, the common roles by theirs.
// The messages array asks every message's hash as it is built.
func (v *MessageValue) slotsHash(m *message, i, turn int) int {
	s, k := &v.slots, &msgSlotKeyHashes
	h := 0
	if s[slotIndex] != nil { // intTerm(i)
		h += k[slotIndex] + i
	}
	if t := s[slotRole]; t != nil {
		h += k[slotRole] + roleHash(t)
	}
	if t := s[slotText]; t != nil {
		h += k[slotText] + termHash(t)
	}
	if t := s[slotHasContent]; t != nil {
		h += k[slotHasContent] + termHash(t)
	}
	if t := s[slotToolCalls]; t != nil {
		h += k[slotToolCalls] + termHash(t)
	}
	if s[slotTurn] != nil { // intTerm(turn)
		h += k[slotTurn] + turn
	}
	if s[slotLine] != nil { // intTerm(m.line)
		h += k[slotLine] + m.line
	}
	if t := s[slotPath]; t != nil {
		if c := m.chatIndex; c >= 0 && c < pathMessages && t == messagePaths[c] {
			h += k[slotPath] + messagePathHashes[c]
		} else {
			h += k[slotPath] + termHash(t)
		}
	}
	for _, slot := range [...]int{slotRaw, slotToolCallID, slotStopReason, slotIsError, slotLines} {
		if t := s[slot]; t != nil {
			h += k[slot] + termHash(t)
		}
	}
	return h
}

// termHash is t's hash, an integer's without OPA's float parse (numberHash).
func termHash(t *ast.Term) int {
	if n, ok := t.Value.(ast.Number); ok {
		return numberHash(n)
	}
	return t.Value.Hash()
}

// The hashes of the roles most messages have.
var (
	hashUser      = ast.String("user").Hash()
	hashAssistant = ast.String("assistant").Hash()
	hashSystem    = ast.String("system").Hash()
	hashTool      = ast.String("tool").Hash()
)

// roleHash is the hash of a role term.
func roleHash(t *ast.Term) int {
	if s, ok := t.Value.(ast.String); ok {
		switch s {
		case "user":
			return hashUser
		case "assistant":
			return hashAssistant
		case "system":
			return hashSystem
		case "tool":
			return hashTool
		}
	}
	return t.Value.Hash()
}

// Materialized is Value with every MessageValue replaced by its object: the
// document Rego is given as input, and every reader but the YAML evaluator
// reads. It is built once per document (a document is evaluated by one
// worker at a time), and is Value itself when Value holds no view.
func (d *Document) Materialized() ast.Object {
	if !d.views {
		return d.Value
	}
	if d.mat == nil {
		d.mat = materialize(d.Value)
	}
	return d.mat
}

// materialize returns doc with the views of its messages array replaced by
// their objects, the members in the same order; doc itself when it has none.
func materialize(doc ast.Object) ast.Object {
	var msgs, raw, entries ast.Value
	if t := doc.Get(KeyMessages); t != nil {
		if arr, _ := t.Value.(*ast.Array); arr != nil {
			if p := plainArray(arr); p != arr {
				msgs = p
			}
		}
	}
	// A Codex rollout's entries, and the lines they hold, may be views
	// (codexReads).
	if t := doc.Get(keyEntries); t != nil {
		if arr, _ := t.Value.(*ast.Array); arr != nil {
			if p := plainArray(arr); p != arr {
				entries = p
			}
		}
	}
	// The record (a document's raw) holds the raw messages, which the
	// decoder may have built as views (rawMessageViews); a Codex message's
	// raw, its payload, may be a view itself (a whole message, given to a
	// rule, reaches Plain as an object holding it).
	if t := doc.Get(KeyRaw); t != nil {
		if v, ok := t.Value.(*astjson.ObjectView); ok {
			raw = v.Materialize()
		} else if o, _ := t.Value.(ast.Object); o != nil {
			if p := materialize(o); p != o {
				raw = p
			}
		}
	}
	if msgs == nil && raw == nil && entries == nil {
		return doc
	}
	kv := make([][2]*ast.Term, 0, doc.Len())
	doc.Foreach(func(k, v *ast.Term) {
		switch {
		case msgs != nil && k.Value.Compare(KeyMessages.Value) == 0:
			v = ast.NewTerm(msgs)
		case entries != nil && k.Value.Compare(keyEntries.Value) == 0:
			v = ast.NewTerm(entries)
		case raw != nil && k.Value.Compare(KeyRaw.Value) == 0:
			v = ast.NewTerm(raw)
		}
		kv = append(kv, [2]*ast.Term{k, v})
	})
	return ast.NewObject(kv...)
}

// Is reports whether o is the document: its Value, or the object OPA reads
// (Materialized, or ForRego's), without materializing it to answer.
func (d *Document) Is(o ast.Object) bool {
	return o == d.Value || (d.mat != nil && o == d.mat) || (d.rego != nil && o == d.rego.Value)
}
