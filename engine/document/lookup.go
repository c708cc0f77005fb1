package document

import (
	"slices"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/chatlint/chatlint/engine/astjson"
)

// The document's lookup field: indexes of the messages (and the tools' names),
// built while they are normalized, so that rules find the assistant messages,
// the tool results and the pairs of calls and results with a lookup instead of
// building them from the messages on every evaluation. They hold data only; every decision
// stays in the rules.
var (
	keyLookup    = ast.StringTerm("lookup")
	keyAssistant = ast.StringTerm("assistant")
	keyTool      = ast.StringTerm("tool")
	keyCalls     = ast.StringTerm("calls")
	keyResults   = ast.StringTerm("results")
	keyCallIDs   = ast.StringTerm("call_ids")
	keyCallNames = ast.StringTerm("call_names")
	keyCallLists = ast.StringTerm("tool_call_lists")
	keyRoleSet   = ast.StringTerm("roles")
	keyToolNames = ast.StringTerm("tool_names")
	keyMsgKeys   = ast.StringTerm("message_keys")
	keyOddText   = ast.StringTerm("content_not_string")
	emptySet     = ast.NewTerm(ast.NewSet())
)

// lookupTerm indexes normalized messages (buildMessages has run):
//
//	assistant: indexes of the messages with role "assistant", in order
//	tool:      indexes of the messages with role "tool", in order
//	calls:     the set of [message index, id] of every tool call of every message
//	call_ids:  the set of the ids of every tool call ("" for a call without one)
//	call_names: the set of the names of every tool call ("" for a call without one)
//	results:   the set of [turn, tool_call_id] of every tool message with a tool_call_id
//	tool_call_lists: indexes of the messages with a tool_calls member that is not null, in order
//	roles:     the set of the roles of the messages ("" for a message without one)
//	tool_names: the set of the names of the tools ("" for a tool without one)
//	message_keys: the set of the keys of the messages given as objects (raw)
//	content_not_string: indexes of the messages given as objects whose content
//	           is absent or not a string, in order
func lookupTerm(ms []message, tools *ast.Term) *ast.Term {
	return lookupTermOf(ms, tools, 0)
}

// lookupTermOf is lookupTerm without the members in unread
// (lookup_fields.go).
func lookupTermOf(ms []message, tools *ast.Term, unread lookupSet) *ast.Term {
	read := func(m lookupSet) bool { return unread&m != m } // some member of m is read
	roles, toolNames, given := emptySet, emptySet, noGiven
	if read(lkRoles) {
		roles = rolesTerm(ms)
	}
	if read(lkToolNames) {
		toolNames = toolNamesTerm(tools)
	}
	if read(lkMsgKeys | lkOddText) {
		given = givenTerms(ms)
	}
	// Counted first, so that each list is allocated once.
	na, nt, nc, nl := 0, 0, 0, 0
	for i := range ms {
		switch ms[i].role {
		case "assistant":
			na++
		case "tool":
			nt++
		}
		nc += len(ms[i].calls)
		if ms[i].toolCalls != nil {
			nl++
		}
	}
	if na+nt+nc+nl == 0 && unread == 0 {
		if roles == emptySet && toolNames == emptySet && given == noGiven {
			return emptyLookup
		}
		return noCallsLookup(roles, toolNames, given)
	}
	// The pairs of calls and results are built when either is read (a
	// result shares its call's pair); the ids and names, each a set,
	// only when read.
	pairsRead, idsRead, namesRead := read(lkCalls|lkResults), read(lkCallIDs), read(lkCallNames)
	var assistant, tool, results, calls, ids, names, lists []*ast.Term
	if read(lkAssistant) {
		assistant = make([]*ast.Term, 0, na)
	}
	if read(lkTool) {
		tool = make([]*ast.Term, 0, nt)
	}
	if read(lkCallLists) {
		lists = make([]*ast.Term, 0, nl)
	}
	var pairs *pairs
	var turnIDs []*ast.Term // the ids of calls, when their pairs are built
	if pairsRead {
		results = make([]*ast.Term, 0, nt)
		calls = make([]*ast.Term, 0, nc)
		turnIDs = make([]*ast.Term, 0, nc)
		pairs = newPairs(nc + nt)
	}
	if idsRead {
		ids = make([]*ast.Term, 0, nc)
	}
	if namesRead {
		names = make([]*ast.Term, 0, nc)
	}
	// The calls of the latest assistant message are calls[from:], so a
	// result that answers one of them shares its pair term: in a record
	// whose results answer their calls, results and calls then hold the
	// same terms.
	turn, from := -1, 0
	for i := range ms {
		m := &ms[i]
		switch m.role {
		case "assistant":
			turn, from = i, len(calls)
			if assistant != nil {
				assistant = append(assistant, intTerm(i))
			}
		case "tool":
			if tool != nil {
				tool = append(tool, intTerm(i))
			}
			if pairsRead && m.callID != nil {
				results = append(results, resultPair(pairs, calls[from:], turnIDs[from:], turn, m.callID))
			}
		}
		if lists != nil && m.toolCalls != nil {
			lists = append(lists, intTerm(i))
		}
		for _, c := range m.calls {
			id := c.Value.(ast.Object).Get(keyID)
			if pairsRead {
				calls = append(calls, pairs.next(intTerm(i), id))
				turnIDs = append(turnIDs, id)
			}
			if idsRead {
				ids = append(ids, id)
			}
			if namesRead {
				names = append(names, c.Value.(ast.Object).Get(keyName))
			}
		}
	}
	var kv [len(lookupMembers)][2]*ast.Term
	n := 0
	add := func(m lookupSet, k, v *ast.Term) {
		if read(m) {
			kv[n] = [2]*ast.Term{k, v}
			n++
		}
	}
	add(lkAssistant, keyAssistant, arrayOrEmpty(assistant))
	add(lkTool, keyTool, arrayOrEmpty(tool))
	add(lkCalls, keyCalls, setOrEmpty(calls))
	add(lkCallIDs, keyCallIDs, setOrEmpty(ids))
	add(lkCallNames, keyCallNames, setOrEmpty(names))
	add(lkResults, keyResults, setOrEmpty(results))
	add(lkCallLists, keyCallLists, arrayOrEmpty(lists))
	add(lkRoles, keyRoleSet, roles)
	add(lkToolNames, keyToolNames, toolNames)
	add(lkMsgKeys, keyMsgKeys, given.keys)
	add(lkOddText, keyOddText, given.oddText)
	return ast.NewTerm(ast.NewObject(kv[:n]...))
}

// given are the lookup fields on the messages as given: the keys they use,
// and which have a content that is not a string. A rule on unknown keys or
// on content shapes (the openai profile's) looks at them first, and visits
// messages only in the few documents where they point at something.
type given struct {
	keys, oddText *ast.Term
}

var noGiven = given{emptySet, emptyArray}

func givenTerms(ms []message) given {
	if len(ms) == 0 {
		return noGiven
	}
	var seen [12]*ast.Term
	keys := seen[:0]
	var odd []*ast.Term
	add := func(k *ast.Term) {
		for _, x := range keys {
			if x.Value.Compare(k.Value) == 0 {
				return
			}
		}
		keys = append(keys, k)
	}
	for i := range ms {
		if ms[i].raw == nil {
			continue
		}
		o, ok := ms[i].raw.Value.(ast.Object)
		if !ok {
			continue
		}
		if c := o.Get(keyContent); c == nil {
			odd = append(odd, intTerm(i))
		} else if _, ok := c.Value.(ast.String); !ok {
			odd = append(odd, intTerm(i))
		}
		if v, ok := o.(*astjson.ObjectView); ok { // the keys make a set: any order
			v.ForeachKey(add)
		} else {
			o.Foreach(func(k, _ *ast.Term) { add(k) })
		}
	}
	return given{setOrEmpty(keys), arrayOrEmpty(odd)}
}

// sharedToolNames maps a normalized tools term, by identity, to the set of
// its names: records that repeat one tools list share its normalized term
// (recordTools), so the set is built once for them.
var sharedToolNames identityCache

// toolNamesTerm is the set of the names of normalized tools.
func toolNamesTerm(tools *ast.Term) *ast.Term {
	if tools == nil {
		return emptySet
	}
	arr, ok := tools.Value.(*ast.Array)
	if !ok || arr.Len() == 0 {
		return emptySet
	}
	if t := sharedToolNames.get(tools); t != nil {
		return t
	}
	names := make([]*ast.Term, 0, arr.Len())
	for i := 0; i < arr.Len(); i++ {
		if o, ok := arr.Elem(i).Value.(ast.Object); ok {
			if n := o.Get(keyName); n != nil {
				names = append(names, n)
			}
		}
	}
	t := setOrEmpty(names)
	sharedToolNames.put(tools, t)
	return t
}

// rolesTerm is the set of the messages' roles. A conversation has few
// distinct roles, so they are gathered in a slice before the set is built;
// past a handful (a hostile record giving each message its own role) a map
// keeps the gathering linear.
func rolesTerm(ms []message) *ast.Term {
	if len(ms) == 0 {
		return emptySet
	}
	const scanned = 16
	var seen [8]string
	distinct := seen[:0]
	var many map[string]struct{}
	var terms []*ast.Term
	for i := range ms {
		r := ms[i].role
		if many != nil {
			if _, ok := many[r]; ok {
				continue
			}
			many[r] = struct{}{}
		} else if slices.Contains(distinct, r) {
			continue
		} else if distinct = append(distinct, r); len(distinct) > scanned {
			many = make(map[string]struct{}, 2*scanned)
			for _, s := range distinct {
				many[s] = struct{}{}
			}
		}
		t := ms[i].roleTerm
		if t == nil {
			t = strTerm(r)
		}
		terms = append(terms, t)
	}
	return ast.SetTerm(terms...)
}

// resultPair is the [turn, id] term of a tool result: the pair of the call
// of the turn's message with that id when there is one (the latest assistant
// message's calls are turnCalls, their ids turnIDs), else a new pair.
func resultPair(pairs *pairs, turnCalls, turnIDs []*ast.Term, turn int, id *ast.Term) *ast.Term {
	if turn >= 0 {
		for k, x := range turnIDs {
			if x.Equal(id) {
				return turnCalls[k]
			}
		}
	}
	return pairs.next(intTerm(turn), id)
}

// pairs hands out two-element array terms from one block of terms and one of
// elements, so that a pair costs one allocation (its array) instead of four.
type pairs struct {
	terms []ast.Term
	elems []*ast.Term
}

func newPairs(n int) *pairs {
	return &pairs{terms: make([]ast.Term, 0, n), elems: make([]*ast.Term, 0, 2*n)}
}

func (p *pairs) next(a, b *ast.Term) *ast.Term {
	k := len(p.elems)
	p.elems = append(p.elems, a, b)
	p.terms = append(p.terms, ast.Term{Value: ast.NewArray(p.elems[k : k+2 : k+2]...)})
	return &p.terms[len(p.terms)-1]
}

// emptyLookup is the lookup of a document without messages or tools,
// shared.
var emptyLookup = noCallsLookup(emptySet, emptySet, noGiven)

// noCallsLookup is the lookup of a document without assistant messages,
// tool results or calls: only its roles and declared tool names.
func noCallsLookup(roles, toolNames *ast.Term, g given) *ast.Term {
	return ast.NewTerm(ast.NewObject(
		[2]*ast.Term{keyAssistant, emptyArray},
		[2]*ast.Term{keyTool, emptyArray},
		[2]*ast.Term{keyCalls, emptySet},
		[2]*ast.Term{keyCallIDs, emptySet},
		[2]*ast.Term{keyCallNames, emptySet},
		[2]*ast.Term{keyResults, emptySet},
		[2]*ast.Term{keyCallLists, emptyArray},
		[2]*ast.Term{keyRoleSet, roles},
		[2]*ast.Term{keyToolNames, toolNames},
		[2]*ast.Term{keyMsgKeys, g.keys},
		[2]*ast.Term{keyOddText, g.oddText},
	))
}

func arrayOrEmpty(ts []*ast.Term) *ast.Term {
	if len(ts) == 0 {
		return emptyArray
	}
	return ast.ArrayTerm(ts...)
}

func setOrEmpty(ts []*ast.Term) *ast.Term {
	if len(ts) == 0 {
		return emptySet
	}
	return ast.SetTerm(ts...)
}
