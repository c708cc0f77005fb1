package yamlrule

// The forms the integrity pack's proxy-log session rules and ShareGPT rules
// needed when they moved from Rego (policies/integrity/session.rego,
// sharegpt.rego) to YAML (rules/integrity/session.yaml, sharegpt.yaml):
//
//   - joins ordered by position in any list (an entry before or after an
//     entry, not only a message before a message), their last partner
//     ($name.last.PATH) and the largest value of a path over the partners
//     ($name.max.PATH);
//   - a let {instant: PATH}: a timestamp as a comparable value;
//   - a condition {extends: {list: PATH, equivalent: [...]}}: a list starts
//     with another, where a run of tokens of the earlier list may stand for
//     another run in the later one (a role trace resent with "Ac At" written
//     as "Act");
//   - template filters {{json PATH}}, {{nth PATH}}, {{words PATH}} and
//     {{q:N PATH}}.
//
// Each is generic in what it computes; the decisions (which tokens are
// equivalent, what counts as the session maximum) stay in the rules.

import (
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/open-policy-agent/opa/v1/ast"
	"gopkg.in/yaml.v3"

	"github.com/chatlint/chatlint/engine/astjson"
	"github.com/chatlint/chatlint/engine/document"
)

// partnerRange returns, for a join with neither on nor differ, the
// partners of el as the range ps.els[lo:hi]: all of them without an order;
// with one, since a partner set is built in document order, the partners
// before (after) an element are a prefix (suffix) of it, found by binary
// search instead of a scan per element.
func partnerRange(ps *partnerSet, j *joinSpec, el *elem) (lo, hi int, ok bool) {
	if len(j.theirs) > 0 || len(j.differMine) > 0 {
		return 0, 0, false
	}
	at := el.position()
	switch {
	case j.order < 0:
		return 0, sort.Search(len(ps.els), func(i int) bool { return ps.els[i].position() >= at }), true
	case j.order > 0:
		return sort.Search(len(ps.els), func(i int) bool { return ps.els[i].position() > at }), len(ps.els), true
	}
	return 0, len(ps.els), true
}

// maxOf returns the largest value of path over the partners of join j of
// the element env stands at (values compared as Rego compares them;
// partners without the path are left out), nil when there is none. For a
// join without on, differ and order the partners are the whole set, so the
// value is kept in the set for the other elements of the document.
func (env *relEnv) maxOf(j *joinSpec, path []seg) ast.Value {
	ps := env.cache.set(j)
	whole := j.order == 0 && len(j.theirs) == 0 && len(j.differMine) == 0
	key := segsText(path)
	if whole {
		for _, a := range ps.aggs {
			if a.key == key {
				return a.v
			}
		}
	}
	var best ast.Value
	sc := newScope(env.cache.doc)
	sc.mem = &env.cache.members
	env.eachPartner(j, ps, func(i int) {
		p := &ps.els[i]
		p.fill(&sc, env.cache) // a partner's scope: no lets of env
		v := lookupValue(p.v, path, &sc)
		if v != nil && (best == nil || compareValues(v, best) > 0) {
			best = v
		}
	})
	if whole {
		ps.aggs = append(ps.aggs, aggMemo{key: key, v: best})
	}
	return best
}

type aggMemo struct {
	key string
	v   ast.Value
}

func segsText(path []seg) string {
	var b strings.Builder
	for i, s := range path {
		if i > 0 {
			b.WriteByte('.')
		}
		b.WriteString(s.name)
	}
	return b.String()
}

// --- {instant: PATH} --------------------------------------------------------

var (
	keyKindTerm  = ast.StringTerm("kind")
	keyValueTerm = ast.StringTerm("value")
	kindNumber   = ast.StringTerm("number")
	kindTime     = ast.StringTerm("time")
)

// isoDateTime is the ISO-8601 date-time an instant reads: "T", "t" or a
// space between date and time, an optional fraction (dot or comma), an
// offset "Z", "+hh:mm", "+hhmm" or none (UTC). It admits only valid field
// ranges; an impossible day (Feb 30) fails the parse that follows.
var isoDateTime = regexp.MustCompile(`^(\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01]))[Tt ]((?:[01]\d|2[0-3]):[0-5]\d:[0-5]\d(?:[.,]\d+)?)([Zz]|[+-](?:[01]\d|2[0-3]):?[0-5]\d)?$`)

// instant is {"kind": "number", "value": v} for a number,
// {"kind": "time", "value": ns} for an ISO-8601 date-time string (ns the
// nanoseconds since the epoch, offsets applied), nil for anything else: two
// instants compare when their kinds are the same.
func instant(v ast.Value) ast.Value {
	switch x := v.(type) {
	case ast.Number:
		return ast.NewObject([2]*ast.Term{keyKindTerm, kindNumber}, [2]*ast.Term{keyValueTerm, ast.NewTerm(x)})
	case ast.String:
		ns, ok := isoInstantNS(string(x))
		if !ok {
			return nil
		}
		return ast.NewObject([2]*ast.Term{keyKindTerm, kindTime}, [2]*ast.Term{keyValueTerm, ast.NumberTerm(json.Number(strconv.FormatInt(ns, 10)))})
	}
	return nil
}

// instantMemo keeps the last instants a rule computed: the earlier entry's
// timestamp of one element is the timestamp of the element before it.
type instantMemo struct {
	in   [2]ast.Value
	out  [2]ast.Value
	next int
}

func (m *instantMemo) get(v ast.Value) ast.Value {
	if v == nil {
		return nil
	}
	for i, x := range m.in {
		if x != nil && compareValues(x, v) == 0 && typeName(x) == typeName(v) {
			return m.out[i]
		}
	}
	out := instant(v)
	m.in[m.next], m.out[m.next] = v, out
	m.next = 1 - m.next
	return out
}

func (m *instantMemo) reset() { *m = instantMemo{} }

func isoInstantNS(s string) (int64, bool) {
	g := isoDateTime.FindStringSubmatch(strings.TrimSpace(s))
	if g == nil {
		return 0, false
	}
	off := g[3]
	switch {
	case off == "" || off == "z" || off == "Z":
		off = "Z"
	case len(off) == 5: // +hhmm
		off = off[:3] + ":" + off[3:]
	}
	t, err := time.Parse(time.RFC3339, g[1]+"T"+strings.ReplaceAll(g[2], ",", ".")+off)
	if err != nil {
		return 0, false
	}
	// The range of nanoseconds since the epoch in an int64, as OPA's
	// time.parse_rfc3339_ns enforces it.
	if t.Before(time.Unix(0, math.MinInt64)) || t.After(time.Unix(0, math.MaxInt64)) {
		return 0, false
	}
	return t.UnixNano(), true
}

// --- {extends: {list: PATH, equivalent: [{earlier, later}]}} ----------------

type equivalence struct {
	earlier, later []ast.Value
}

// extendsTest compiles the extends operator: the value, a list (absent
// counts as empty), starts with the list at PATH (absent: empty), where a
// run `earlier` of that list may stand for the run `later` in the value.
func extendsTest(n *yaml.Node) (test, error) {
	var spec struct {
		List       string `yaml:"list"`
		Equivalent []struct {
			Earlier []any `yaml:"earlier"`
			Later   []any `yaml:"later"`
		} `yaml:"equivalent"`
	}
	if err := n.Decode(&spec); err != nil || spec.List == "" {
		return test{}, fmt.Errorf("want {list: PATH, equivalent: [{earlier: [...], later: [...]}]}")
	}
	var eqs []equivalence
	for i, e := range spec.Equivalent {
		if len(e.Earlier) == 0 {
			return test{}, fmt.Errorf("equivalent[%d]: earlier must not be empty", i)
		}
		var q equivalence
		for _, x := range e.Earlier {
			v, err := ast.InterfaceToValue(x)
			if err != nil {
				return test{}, err
			}
			q.earlier = append(q.earlier, v)
		}
		for _, x := range e.Later {
			v, err := ast.InterfaceToValue(x)
			if err != nil {
				return test{}, err
			}
			q.later = append(q.later, v)
		}
		eqs = append(eqs, q)
	}
	return test{desc: "must extend " + spec.List, el: &elTest{kind: elExtends, path: parsePath(spec.List), eqs: eqs}}, nil
}

// list is a list value without a copy of its elements; an absent value is
// the empty list.
type list struct{ a *ast.Array }

func (l list) len() int {
	if l.a == nil {
		return 0
	}
	return l.a.Len()
}

func (l list) at(i int) ast.Value { return l.a.Elem(i).Value }

func listOf(v ast.Value) (list, bool) {
	switch x := v.(type) {
	case nil:
		return list{}, true
	case *ast.Array:
		return list{x}, true
	}
	return list{}, false
}

// extends reports whether later starts with earlier, reading each run of
// an equivalence's earlier tokens in earlier as its later tokens or as
// themselves: a search over the pairs (position in earlier, position in
// later), which for a history resent unchanged is one step per token.
func extends(earlier, later list, eqs []equivalence) bool {
	if earlier.len() <= later.len() && runAt(earlier, 0, later, 0, earlier.len()) {
		return true // the common case: the history resent token for token
	}
	// reach[i] holds the positions in later that the first i tokens of
	// earlier can end at.
	reach := make([][]int, earlier.len()+1)
	reach[0] = []int{0}
	add := func(i, j int) {
		for _, k := range reach[i] {
			if k == j {
				return
			}
		}
		reach[i] = append(reach[i], j)
	}
	for i := 0; i < earlier.len(); i++ {
		for _, j := range reach[i] {
			if j < later.len() && compareValues(earlier.at(i), later.at(j)) == 0 {
				add(i+1, j+1)
			}
			for _, q := range eqs {
				if i+len(q.earlier) <= earlier.len() && j+len(q.later) <= later.len() &&
					tokensAt(q.earlier, earlier, i) && tokensAt(q.later, later, j) {
					add(i+len(q.earlier), j+len(q.later))
				}
			}
		}
	}
	return len(reach[earlier.len()]) > 0
}

// runAt reports whether a[i:i+n] equals b[j:j+n] (both long enough).
func runAt(a list, i int, b list, j, n int) bool {
	for k := 0; k < n; k++ {
		if compareValues(a.at(i+k), b.at(j+k)) != 0 {
			return false
		}
	}
	return true
}

// tokensAt reports whether l[i:] starts with toks (l long enough).
func tokensAt(toks []ast.Value, l list, i int) bool {
	for k, t := range toks {
		if compareValues(t, l.at(i+k)) != 0 {
			return false
		}
	}
	return true
}

// --- template filters -------------------------------------------------------

// knownFilter reports whether f is a template filter: {{q PATH}}, {{type
// PATH}} (eval.go), {{json PATH}}, {{nth PATH}}, {{words PATH}},
// {{q:N PATH}}.
func knownFilter(f string) bool {
	switch f {
	case "q", "type", "json", "nth", "words":
		return true
	}
	_, ok := quoteLimit(f)
	return ok
}

func quoteLimit(f string) (int, bool) {
	s, ok := strings.CutPrefix(f, "q:")
	if !ok {
		return 0, false
	}
	n, err := strconv.Atoi(s)
	return n, err == nil && n > 0
}

// renderFilter renders v (nil when absent) for the filters of this file;
// ok is false for the others.
//
//   - json: the value as JSON text (Rego's json.marshal), null when absent;
//   - nth: a 0-based index as the 1-based number people count with;
//   - words: a list's elements joined by spaces (a string as it is, any
//     other value as JSON text);
//   - q:N: quoted as {{q}} writes it, cut after N characters with "…"
//     after the closing quote.
func renderFilter(filter string, v ast.Value) (string, bool) {
	switch filter {
	case "json":
		return astjson.Compact(document.Plain(v)), true // views.go
	case "nth":
		n, ok := v.(ast.Number)
		if !ok {
			return "", true
		}
		if i, ok := n.Int(); ok {
			return strconv.Itoa(i + 1), true
		}
		return n.String(), true
	case "words":
		arr, ok := v.(*ast.Array)
		if !ok {
			return "", true
		}
		var b strings.Builder
		for i := 0; i < arr.Len(); i++ {
			if i > 0 {
				b.WriteByte(' ')
			}
			if s, ok := arr.Elem(i).Value.(ast.String); ok {
				b.WriteString(string(s))
			} else {
				b.WriteString(astjson.Compact(document.Plain(arr.Elem(i).Value)))
			}
		}
		return b.String(), true
	}
	if n, ok := quoteLimit(filter); ok {
		s, isStr := v.(ast.String)
		if !isStr {
			return "", false // as {{q}}
		}
		if utf8.RuneCountInString(string(s)) <= n {
			return strconv.Quote(string(s)), true
		}
		return strconv.Quote(string([]rune(string(s))[:n])) + "…", true
	}
	return "", false
}
