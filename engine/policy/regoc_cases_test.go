package policy_test

import (
	"strconv"
	"strings"

	"github.com/chatlint/chatlint/engine/policy"
)

// regocCases are Rego rules written for the differential test of the
// compiled closures: each exercises one construct of the subset, over
// documents where it holds, fails and is undefined. Every one must compile
// (regocCasePacks checks it).
var regocCases = map[string]string{
	"function-constant-args": `deny contains f if {
	some i, m in input.messages
	edge(i)
	f := {"rule": ID, "msg": sprintf("%s at an end: %s", [m.role, kind(m.role)]), "message_index": i}
}

edge(0) if true

edge(i) if i == count(input.messages) - 1

kind("tool") := "result"

kind(r) := "other" if r != "tool"`,
	"iterate-index": `deny contains f if {
	some i, m in input.messages
	m.role == "tool"
	i > 0
	f := {"rule": ID, "msg": sprintf("tool at %d", [i]), "message_index": i}
}`,
	"compare-ops": `warn contains f if {
	some i, m in input.messages
	count(m.tool_calls) >= 2
	i != 0
	count(input.messages) < 50
	f := {"rule": ID, "msg": sprintf("%d calls at %d", [count(m.tool_calls), i])}
}`,
	"object-iterate": `info contains f if {
	some k, v in input.messages[0]
	is_string(v)
	f := {"rule": ID, "msg": sprintf("%s=%v", [k, v])}
}`,
	"set-comprehension-not": `deny contains f if {
	ids := {c.id | some m in input.messages; some c in m.tool_calls}
	some i, m in input.messages
	m.role == "tool"
	not ids[m.tool_call_id]
	f := {"rule": ID, "msg": sprintf("unmatched %v", [object.get(m, "tool_call_id", null)]), "message_index": i}
}`,
	"array-comprehension": `warn contains f if {
	roles := [m.role | some m in input.messages]
	count(roles) > 1
	roles[0] != "system"
	f := {"rule": ID, "msg": concat(",", roles)}
}`,
	"member-in": `deny contains f if {
	some m in input.messages
	m.role in {"tool", "function"}
	"x" in ["a", "x"]
	f := {"rule": ID, "msg": sprintf("role %s", [m.role])}
}`,
	"member-kv": `info contains f if {
	some m in input.messages
	some j, c in m.tool_calls
	1, c in m.tool_calls
	f := {"rule": ID, "msg": sprintf("second call %v at %d", [c.name, j])}
}`,
	"builtin-error-undefined": `warn contains f if {
	some m in input.messages
	n := to_number(m.text)
	f := {"rule": ID, "msg": sprintf("numeric text %v", [n])}
}`,
	"builtin-strings": `info contains f if {
	some m in input.messages
	is_string(m.text)
	startswith(lower(m.text), "s")
	not endswith(m.text, ".")
	regex.match("[a-z]+", m.text)
	f := {"rule": ID, "msg": sprintf("text %q len %d", [substring(m.text, 0, 5), count(m.text)])}
}`,
	"undefined-refs": `deny contains f if {
	x := input.nonexistent.member
	f := {"rule": ID, "msg": sprintf("%v", [x])}
}`,
	"undefined-index": `deny contains f if {
	input.messages[99].role
	f := {"rule": ID, "msg": "hundredth"}
}`,
	"string-index": `deny contains f if {
	some m in input.messages
	m.role[0]
	f := {"rule": ID, "msg": "indexed a string"}
}`,
	"join-two-refs": `info contains f if {
	input.messages[i].tool_call_id == input.messages[j].tool_calls[_].id
	f := {"rule": ID, "msg": sprintf("%d answers %d", [i, j]), "message_index": i}
}`,
	"literals": `info contains f if {
	some i, m in input.messages
	pair := [i, m.role]
	s := {m.role, "user"}
	o := {"i": i, "role": m.role, "nested": [s, {"x": null}]}
	count(s) == 2
	o.nested[0] == s
	f := {"rule": ID, "msg": sprintf("%v", [pair]), "message_index": i}
}`,
	// The messages are views (document.MessageValue), their calls too
	// (astjson.ObjectView): these compare, collect and hand them whole
	// to built-ins, where the closures must give OPA plain values.
	"views-equal": `info contains f if {
	some i, m in input.messages
	some j, n in input.messages
	i < j
	m == n
	f := {"rule": ID, "msg": sprintf("%d equals %d", [i, j]), "message_index": j}
}`,
	"views-calls-equal": `info contains f if {
	some i, m in input.messages
	some j, n in input.messages
	i < j
	count(m.tool_calls) > 0
	m.tool_calls == n.tool_calls
	f := {"rule": ID, "msg": sprintf("calls of %d again at %d", [i, j]), "message_index": j}
}`,
	"views-set": `warn contains f if {
	ms := {m | some m in input.messages}
	cs := {c | some m in input.messages; some c in m.tool_calls}
	count(ms) < count(input.messages)
	f := {"rule": ID, "msg": sprintf("%d distinct of %d, %d calls", [count(ms), count(input.messages), count(cs)])}
}`,
	"views-builtins": `info contains f if {
	some i, m in input.messages
	m in array.slice(input.messages, 0, i)
	f := {"rule": ID, "msg": sprintf("%v %v %d", [json.marshal(m), object.keys(m), count(m)]), "message_index": i}
}`,
	"views-in-values": `info contains f if {
	some i, m in input.messages
	count(m.tool_calls) > 0
	o := {"m": m, "calls": m.tool_calls}
	o == {"m": input.messages[i], "calls": [c | some c in m.tool_calls]}
	f := {"rule": ID, "msg": json.marshal([o, {m.tool_calls[0]}]), "message_index": i}
}`,
	// object.get (with a key or a path), the is_ and type_name built-ins
	// and count read a view as it is (regoc/builtin_reads.go); a view as a
	// key or a default is made plain.
	"views-member-type": `info contains f if {
	some i, m in input.messages
	r := object.get(m, "role", "none")
	c := object.get(m, "tool_calls", [])
	x := object.get(m, ["tool_calls", 0, "name"], "none")
	y := object.get(m, 0, m)
	z := object.get(object.get(c, 0, {}), "function", null)
	k := object.get({"a": m}, "a", null)
	w := object.get(input, ["messages", i, "role"], null)
	some n in c
	is_object(n)
	is_object(m)
	not is_array(m)
	not is_string(n)
	types := [type_name(m), type_name(c), type_name(n), type_name(object.get(n, "name", null))]
	f := {"rule": ID, "msg": sprintf("%v %v %v %v %v %v %v %v %d %v", [r, count(c), x, y == m, z, k == m, w, types, count(m), is_null(object.get(n, "missing", null))]), "message_index": i}
}`,
	"dedupe-two-rules": `warn contains f if {
	some m in input.messages
	m.role == "user"
	f := {"rule": ID, "msg": "has a user message"}
}

warn contains f if {
	input.messages[_].role == "user"
	f := {"rule": ID, "msg": "has a user message"}
}`,
	"set-iterate": `info contains f if {
	roles := {m.role | some m in input.messages}
	some r in roles
	f := {"rule": ID, "msg": sprintf("role %v", [r])}
}`,
	"not-with-binding": `deny contains f if {
	some i, m in input.messages
	m.role == "assistant"
	not m.tool_calls[0].id
	not m.has_content
	f := {"rule": ID, "msg": "empty assistant", "message_index": i}
}`,
	"equality-values": `info contains f if {
	some i, m in input.messages
	m.index = i
	[m.role, i] = [m.role, m.index]
	{"a": m.role} == {"a": m.role}
	f := {"rule": ID, "msg": sprintf("index %v", [i])}
}`,
	"arith-and-aggregates": `info contains f if {
	lens := [count(m.tool_calls) | some m in input.messages; m.tool_calls]
	total := sum(lens)
	total > 0
	f := {"rule": ID, "msg": sprintf("%d calls, max %d, avg %v", [total, max(lens), total / count(lens)])}
}`,
	"truthy-false": `info contains f if {
	some m in input.messages
	m.has_content
	f := {"rule": ID, "msg": "content"}
}`,
	"json-unmarshal-error": `deny contains f if {
	some m in input.messages
	some c in m.tool_calls
	is_string(c.arguments)
	args := json.unmarshal(c.arguments)
	f := {"rule": ID, "msg": sprintf("args %v", [args])}
}`,
	"actions-set": `actions contains a if {
	some i, m in input.messages
	m.role == "tool"
	i == count(input.messages) - 1
	a := {"op": "drop", "rule": ID, "reason": "trailing tool message", "message_index": i}
}`,
	"helper-sets": `ids contains c.id if {
	some m in input.messages
	m.role == "assistant"
	some c in m.tool_calls
}

answered contains id if {
	some m in input.messages
	id := m.tool_call_id
	ids[id]
}

deny contains f if {
	some i, m in input.messages
	m.role == "tool"
	not ids[m.tool_call_id]
	f := {"rule": ID, "msg": sprintf("unmatched %v of %d", [m.tool_call_id, count(ids)]), "message_index": i}
}

info contains f if {
	order := [id | some id in ids]
	count(order) > 0
	some id in ids
	not answered[id]
	f := {"rule": ID, "msg": sprintf("unanswered %v of %v", [id, order])}
}

warn contains f if {
	count(data.chatlint.regoc.helper_sets.deny) > 1
	f := {"rule": ID, "msg": "several unmatched"}
}`,
	"whole-input": `info contains f if {
	input.format == "chat"
	is_object(input)
	f := {"rule": ID, "msg": sprintf("%d members", [count(object.keys(input))])}
}`,
	"destructure": `pairs := [[i, m.role] | some i, m in input.messages]

info contains f if {
	some [i, role] in pairs
	[r, _] := [role, i]
	r != "user"
	f := {"rule": ID, "msg": sprintf("%v at %v", [r, i])}
}

warn contains f if {
	some m in input.messages
	is_string(m.role)
	[first, second] = split(m.role, "s")
	f := {"rule": ID, "msg": sprintf("split %q %q", [first, second])}
}

warn contains f if {
	[x, [y, z]] = [count(input.messages), [1, input.messages[0].role]]
	f := {"rule": ID, "msg": sprintf("%v %v %v", [x, y, z])}
}

deny contains f if {
	[a] = input.messages[0]
	f := {"rule": ID, "msg": "never: an object is no array"}
}`,
	"functions": `role_of(m) := m.role

has_role(ms, r) if ms[_].role == r

no_user(ms) if not has_role(ms, "user")

info contains f if {
	not no_user(input.messages)
	not has_role(input.messages, "tool")
	f := {"rule": ID, "msg": "a user, no tool"}
}

kind(m) := "call" if {
	m.tool_calls
} else := "result" if {
	m.role == "tool"
} else := "other"

warn contains f if {
	some i, m in input.messages
	kind(m) != "other"
	f := {"rule": ID, "msg": sprintf("%d is a %v", [i, kind(m)])}
}

is_tool(m) if m.role == "tool"

label(i, m) := sprintf("%d:%v", [i, m.role])

deny contains f if {
	some i, m in input.messages
	is_tool(m)
	r := role_of(m)
	f := {"rule": ID, "msg": label(i, m), "message_index": i}
}

info contains f if {
	some m in input.messages
	not is_tool(m)
	role_of(m) == "user"
	f := {"rule": ID, "msg": sprintf("user %v", [object.get(m, "text", null)])}
}`,
	"helper-complete": `roles := {m.role | some m in input.messages}

level := "many" if {
	count(input.messages) > 5
} else := "some" if {
	count(input.messages) > 0
}

warn contains f if {
	f := {"rule": ID, "msg": sprintf("level %v", [level])}
}

first_role := input.messages[0].role

default has_tool := false

has_tool if input.messages[_].role == "tool"

info contains f if {
	count(roles) > 1
	f := {"rule": ID, "msg": sprintf("roles %v, first %v, tool %v", [roles, first_role, has_tool])}
}

warn contains f if {
	not has_tool
	some r in roles
	f := {"rule": ID, "msg": sprintf("no tool; role %v", [r])}
}`,
	// every: topdown's evalEvery, member by member, each body looked for
	// up to its first solution.
	"every-basic": `deny contains f if {
	every m in input.messages {
		m.role != ""
		m.role != "function"
	}
	f := {"rule": ID, "msg": sprintf("%d messages", [count(input.messages)])}
}`,
	"every-key-value": `info contains f if {
	every i, m in input.messages {
		i < 4
		m.role in {"system", "user", "assistant", "tool"}
	}
	f := {"rule": ID, "msg": "short and plain"}
}`,
	"every-empty-domain": `info contains f if {
	every x in [] { x == 1 }
	every k, v in {} { k == v }
	some i, m in input.messages
	every c in m.tool_calls { c.id == "c0" }
	f := {"rule": ID, "msg": sprintf("calls all c0 at %d", [i]), "message_index": i}
}`,
	"every-undefined-domain": `deny contains f if {
	every x in input.nonexistent { x == 1 }
	f := {"rule": ID, "msg": "undefined domain"}
}

info contains f if {
	some i, m in input.messages
	every c in m.tool_calls[5].id { c == "x" }
	f := {"rule": ID, "msg": "undefined domain in a message", "message_index": i}
}`,
	"every-object-domain": `info contains f if {
	some i, m in input.messages
	every k, v in m {
		k != "tool_call_id"
		v != null
	}
	every k, c in object.union({"a": 1}, {"b": m.role}) { is_string(k); c != "tool" }
	f := {"rule": ID, "msg": sprintf("message %d: %v", [i, object.keys(m)]), "message_index": i}
}`,
	"every-not-collection": `info contains f if {
	some i, m in input.messages
	every c in m.text { c != "x" }
	f := {"rule": ID, "msg": sprintf("text of %d is a collection", [i]), "message_index": i}
}

deny contains f if {
	every c in count(input.messages) { c }
	f := {"rule": ID, "msg": "a number is a domain"}
}`,
	"every-set-domain": `warn contains f if {
	roles := {m.role | some m in input.messages}
	every r in roles { r != "developer" }
	every r, s in {"a", "b"} { r == s }
	f := {"rule": ID, "msg": sprintf("roles %v", [roles])}
}`,
	"every-nested": `info contains f if {
	some j, first in input.messages
	every i, m in input.messages {
		every c in object.get(m, "tool_calls", []) {
			c.id != "c3"
			i >= j
		}
	}
	f := {"rule": ID, "msg": sprintf("no c3 from %d on", [j]), "message_index": j}
}`,
	"every-binds-in-body": `info contains f if {
	some i, m in input.messages
	every c in object.get(m, "tool_calls", []) {
		some n in input.messages
		n.tool_call_id == c.id
		x := n.role
		x == "tool"
	}
	count(object.get(m, "tool_calls", [])) > 0
	f := {"rule": ID, "msg": sprintf("all calls of %d answered", [i]), "message_index": i}
}`,
	// pick conflicts on a function message: the closures must stop where
	// topdown stops, at a body's first solution and at the first member
	// that has none, or they meet the conflict and fall back.
	"every-stops": `pick(m) := m.role

pick(m) := "x" if m.role == "function"

info contains f if {
	some i, m in input.messages
	every x in [m] {
		some y in [0, x]
		count([p | p := pick(y)]) >= 0
	}
	n := count([1 | every x in [0, m] { x != 0; pick(x) != "" }])
	f := {"rule": ID, "msg": sprintf("%d stops at %d", [n, i]), "message_index": i}
}`,
	"every-in-helpers": `all_named(m) if every c in m.tool_calls { c.name != "" }

plain_roles if every m in input.messages { m.role in {"user", "assistant"} }

info contains f if {
	some i, m in input.messages
	all_named(m)
	f := {"rule": ID, "msg": sprintf("named calls at %d, plain %v", [i, object.get({"p": plain_roles}, "p", false)]), "message_index": i}
}`,
	// sprintf and other built-ins over sets, objects and arrays holding
	// views: OPA's own formatting of plain values.
	"sprintf-collections": `info contains f if {
	ms := {m | some m in input.messages}
	roles := {m.role | some m in input.messages}
	byindex := {i: m | some i, m in input.messages}
	count(ms) > 0
	f := {"rule": ID, "msg": sprintf("%v|%v|%v|%v|%s", [ms, roles, byindex, input.messages, concat(",", roles)])}
}`,
	"bench-team-outside": `deny contains f if {
	roles := {m.role | some m in input.messages}
	calls := [c | some m in input.messages; some c in m.tool_calls]
	every m in input.messages {
		m.role != ""
	}
	n := count(input.messages)
	(n + 7 * count(calls)) % 2 == 0
	f := {"rule": ID, "msg": sprintf("%d messages, roles %v", [n, roles])}
}`,
}

// regocConflictCases raise an error in topdown on some records (a complete
// rule or an object comprehension with two values for one key): there the
// closures leave the whole document to topdown. They are a pack of their
// own, so that the other cases are compared on records the closures do
// evaluate.
var regocConflictCases = map[string]string{
	"object-comprehension-conflict": `info contains f if {
	answers := {m.tool_call_id: i | some i, m in input.messages; m.role == "tool"}
	some id, i in answers
	f := {"rule": ID, "msg": sprintf("%v answered at %d", [id, i])}
}`,
	"function-conflict": `pick(m) := m.role

pick(m) := "x" if m.role == "function"

info contains f if {
	some m in input.messages
	f := {"rule": ID, "msg": sprintf("picked %v", [pick(m)])}
}`,
	"helper-conflict": `only_result := m.tool_call_id if {
	some m in input.messages
	m.role == "tool"
}

by_call := {c.id: i | some i, m in input.messages; some c in m.tool_calls}

deny contains f if {
	only_result
	f := {"rule": ID, "msg": sprintf("one result, for %v", [only_result])}
}

info contains f if {
	some id, i in by_call
	f := {"rule": ID, "msg": sprintf("%v called at %v", [id, i])}
}`,
}

// regocCasePacks makes a pack of every case, one package each; together
// with one package that stays on topdown (it uses with) in the
// same pack, so that merged results keep topdown's order.
func regocCasePacks(cases map[string]string) []*policy.Pack {
	p := &policy.Pack{Name: "regoc"}
	for id, body := range cases {
		pkg := strings.ReplaceAll(id, "-", "_")
		src := "package chatlint.regoc." + pkg + "\n\n# METADATA\n# description: a construct of the compiled subset.\n# custom:\n#   id: " + id +
			"\n#   severity: info\n" + strings.ReplaceAll(body, "ID", strconv.Quote(id)) + "\n"
		p.Rego = append(p.Rego, policy.File{Name: id + ".rego", Source: []byte(src)})
	}
	p.Rego = append(p.Rego, policy.File{Name: "helper.rego", Source: []byte(`package chatlint.regoc.helper

# METADATA
# description: stays on topdown.
# custom:
#   id: helper
#   severity: info
info contains f if {
	some m in input.messages
	count(input.messages) > 0 with input.unused as 1
	f := {"rule": "helper", "msg": sprintf("role %v", [m.role])}
}

info contains {"rule": "set-iterate", "msg": "role user"} if {
	"user" in {m.role | some m in input.messages}
	count(input.messages) > 0 with input.unused as 1
}
`)})
	return []*policy.Pack{p}
}
