package astjson

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"
)

var digestOnly = &Projection{Digest: true}

// standInOf decodes text as a value a Digest applies to, and whole.
func standInOf(t testing.TB, text string) (stand, whole ast.Value) {
	t.Helper()
	whole, err := Decode([]byte(text))
	stand, perr := DecodeProjected([]byte(text), digestOnly)
	if fmt.Sprint(err) != fmt.Sprint(perr) {
		t.Fatalf("%s: Decode: %v; with Digest: %v", text, err, perr)
	}
	return stand, whole
}

// TestDigestKeepsEquality: two values' stand-ins are equal exactly when
// OPA's Compare says the values are, on texts that write one value in
// different ways (key order, a key given twice, number forms, string
// escapes) and on texts of different values.
func TestDigestKeepsEquality(t *testing.T) {
	groups := [][]string{
		{`[1]`, `[1.0]`, `[1e0]`, `[10e-1]`, `[0.1e1]`, `[100E-2]`, `[1.000]`},
		{`[0]`, `[-0]`, `[0.0]`, `[0e5]`, `[-0.0e-3]`},
		{`[123456789012345678901234567890]`, `[1.23456789012345678901234567890e29]`, `[12345678901234567890123456789e1]`},
		{`[123456789012345678901234567891]`},
		{`[0.1]`, `[1e-1]`, `[0.01e1]`},
		{`[0.30000000000000004]`},
		{`{"a":1,"b":[true,null]}`, `{"b":[true,null],"a":1}`, `{"b":[true,null],"a":2,"a":1}`, `{ "a" : 1.0 , "b" : [ true , null ] }`},
		{`{"a":1,"b":[null,true]}`},
		{`{"a":1}`},
		{`{"a":"1"}`},
		{`["é\u00e9😀"]`, `["\u00e9é\ud83d\ude00"]`, `["\u00E9\u00e9\uD83D\uDE00"]`},
		{`["\"\\\/\b\f\n\r\t"]`, `["\u0022\u005c/\u0008\u000c\u000a\u000d\u0009"]`},
		{`[""]`},
		{`[[]]`, `[ [ ] ]`},
		{`[{}]`},
		{`[[],[]]`},
		{`[{"x":[1,{"y":2}]}]`, `[{"x":[1.0,{"y":20e-1}]}]`},
		{`[{"x":[1,{"y":3}]}]`},
		{`["a","b"]`},
		{`["ab"]`},
		{`["a",["b"]]`},
		{`[["a"],"b"]`},
		{`{"a":{"b":1}}`},
		{`{"a":[["b",1]]}`},
		{`{"ab":1}`},
		{`{"a":1,"b":1}`},
	}
	type item struct {
		group int
		text  string
		stand ast.Value
		whole ast.Value
	}
	var items []item
	for g, texts := range groups {
		for _, text := range texts {
			s, w := standInOf(t, text)
			items = append(items, item{g, text, s, w})
		}
	}
	for _, a := range items {
		if _, ok := standInSum(a.stand); !ok {
			t.Errorf("%s: not a stand-in: %v", a.text, a.stand)
		}
		for _, b := range items {
			want := ast.Compare(a.whole, b.whole) == 0
			if (a.group == b.group) != want {
				t.Fatalf("the test's groups are wrong: %s, %s: Compare says %v", a.text, b.text, want)
			}
			if got := ast.Compare(a.stand, b.stand) == 0; got != want {
				t.Errorf("%s, %s: stand-ins equal %v, values %v", a.text, b.text, got, want)
			}
			if got := Equal(a.stand, b.whole); got != want {
				t.Errorf("%s, %s: Equal(stand-in, value) %v, values %v", a.text, b.text, got, want)
			}
		}
	}
}

// TestDigestStandInShape: a stand-in keeps its value's kind, emptiness and
// truthiness; a scalar and an empty container are kept as they are.
func TestDigestStandInShape(t *testing.T) {
	for _, c := range []struct {
		text, kind string
		empty      bool
	}{
		{`[1,2,3]`, "an array", false},
		{`[]`, "an array", true},
		{`{"a":[0,0]}`, "an object", false},
		{` { } `, "an object", true},
		{`"x"`, "a string", false},
		{`0`, "a number", false},
		{`null`, "null", false},
	} {
		stand, whole := standInOf(t, c.text)
		if Kind(stand) != c.kind {
			t.Errorf("%s: stand-in is %s, want %s", c.text, Kind(stand), c.kind)
		}
		_, isStandIn := standInSum(stand)
		if isStandIn == (c.empty || (c.kind != "an array" && c.kind != "an object")) {
			t.Errorf("%s: stand-in %v", c.text, stand)
		}
		if !isStandIn && ast.Compare(stand, whole) != 0 {
			t.Errorf("%s: kept as %v, want %v", c.text, stand, whole)
		}
	}
}

// TestDigestFloatFormDecodedWhole: a number OPA may compare as a float64
// ("0.10", "1.50": a fraction ending in zeros) inside a value a Digest
// applies to makes the record decode without stand-ins, so OPA compares
// it; a record without one keeps its stand-ins.
func TestDigestFloatFormDecodedWhole(t *testing.T) {
	p := &Projection{Object: true, Members: map[string]*Projection{"a": digestOnly, "b": digestOnly}}
	for _, c := range []struct {
		text      string
		standsFor bool
	}{
		{`{"a":[0.1],"b":[1]}`, true},
		{`{"a":[0.10],"b":[1]}`, false},
		{`{"a":[1],"b":{"x":[2.50]}}`, false},
		{`{"a":[1.0],"b":[1.]}`, true}, // 1.0 trims to an integer; "1." is not JSON, tested below
	} {
		v, err := DecodeProjected([]byte(c.text), p)
		if strings.Contains(c.text, "1.]") {
			if err == nil {
				t.Errorf("%s: no error", c.text)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", c.text, err)
		}
		whole, _ := Decode([]byte(c.text))
		_, standsFor := standInSum(v.(ast.Object).Get(ast.StringTerm("a")).Value)
		if standsFor != c.standsFor {
			t.Errorf("%s: stand-in %v, want %v", c.text, standsFor, c.standsFor)
		}
		if !c.standsFor && ast.Compare(v, whole) != 0 {
			t.Errorf("%s: decoded %v, want the whole value %v", c.text, v, whole)
		}
	}
}

// TestDigestEqualsCompareRandom: on random JSON values, each written in
// random ways (key order, repeated keys, number forms, escapes) and with
// random small changes, Equal of the stand-ins (and of a stand-in and a
// value built whole) is ast.Compare's equality of the values.
func TestDigestEqualsCompareRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	n := 3000
	if testing.Short() {
		n = 300
	}
	for range n {
		v := randomValue(r, 0)
		texts := []string{}
		for range 3 {
			texts = append(texts, writeValueText(r, v))
		}
		texts = append(texts, writeValueText(r, mutate(r, v)), writeValueText(r, randomValue(r, 0)))
		type dec struct{ stand, whole ast.Value }
		var ds []dec
		for _, text := range texts {
			s, w := standInOf(t, text)
			ds = append(ds, dec{s, w})
		}
		for i, a := range ds {
			for j, b := range ds {
				want := ast.Compare(a.whole, b.whole) == 0
				if got := Equal(a.stand, b.stand); got != want {
					t.Fatalf("Equal(stand-ins) %v, Compare says %v:\n%s\n%s", got, want, texts[i], texts[j])
				}
				if got := Equal(a.stand, b.whole); got != want {
					t.Fatalf("Equal(stand-in, value) %v, Compare says %v:\n%s\n%s", got, want, texts[i], texts[j])
				}
			}
		}
	}
}

// FuzzDigestEqual: Equal of two texts' stand-ins is ast.Compare's equality
// of their values, and the projection fails exactly where Decode fails.
func FuzzDigestEqual(f *testing.F) {
	for _, s := range [][2]string{
		{`[1]`, `[1.0]`}, {`{"a":1,"b":2}`, `{"b":2,"a":1}`}, {`["\u00e9"]`, `["é"]`},
		{`[0.10]`, `[0.1000000000000000000001]`}, {`[0.10]`, `[0.10000000000000000000010]`}, {`[1e400]`, `[1]`}, {`{"a":1,"a":2}`, `{"a":2}`},
		{`[123456789012345678901234567890]`, `[1.2345678901234567890123456789e29]`},
	} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		wa, erra := Decode([]byte(a))
		sa, perra := DecodeProjected([]byte(a), digestOnly)
		if fmt.Sprint(erra) != fmt.Sprint(perra) {
			t.Fatalf("%q: Decode: %v; with Digest: %v", a, erra, perra)
		}
		wb, errb := Decode([]byte(b))
		sb, _ := DecodeProjected([]byte(b), digestOnly)
		if erra != nil || errb != nil {
			return
		}
		want := ast.Compare(wa, wb) == 0
		if got := Equal(sa, sb); got != want {
			t.Fatalf("%q, %q: Equal(stand-ins) %v, Compare says %v", a, b, got, want)
		}
		if got := Equal(sa, wb); got != want {
			t.Fatalf("%q, %q: Equal(stand-in, value) %v, Compare says %v", a, b, got, want)
		}
	})
}

// jv is a random JSON value: nil, bool, a number's value (mantissa digits,
// exponent, sign), string, []jv, or an object's members in order.
type (
	jnum struct {
		neg    bool
		digits string // no leading zeros, or "0"
		exp    int    // value = digits × 10^exp
	}
	jobj    []jmember
	jmember struct {
		k string
		v any
	}
)

func randomValue(r *rand.Rand, depth int) any {
	k := r.IntN(8)
	if depth > 3 {
		k %= 4
	}
	switch k {
	case 0:
		return nil
	case 1:
		return r.IntN(2) == 0
	case 2:
		return randomNumber(r)
	case 3:
		return randomString(r)
	case 4, 5:
		n := r.IntN(4)
		a := make([]any, n)
		for i := range a {
			a[i] = randomValue(r, depth+1)
		}
		return a
	}
	n := r.IntN(4)
	var o jobj
	for range n {
		o = append(o, jmember{randomKey(r), randomValue(r, depth+1)})
	}
	return o
}

func randomNumber(r *rand.Rand) jnum {
	switch r.IntN(5) {
	case 0:
		return jnum{digits: "0"}
	case 1: // a big integer
		var b strings.Builder
		b.WriteByte(byte('1' + r.IntN(9)))
		for range 15 + r.IntN(30) {
			b.WriteByte(byte('0' + r.IntN(10)))
		}
		return jnum{neg: r.IntN(2) == 0, digits: b.String()}
	}
	d := strconv.Itoa(1 + r.IntN(30))
	return jnum{neg: r.IntN(3) == 0, digits: d, exp: r.IntN(7) - 3}
}

func randomString(r *rand.Rand) string {
	runes := []rune{'a', 'b', 'é', '😀', '"', '\\', '\n', '\u2026', 0x1f}
	var b strings.Builder
	for range r.IntN(4) {
		b.WriteRune(runes[r.IntN(len(runes))])
	}
	return b.String()
}

func randomKey(r *rand.Rand) string {
	return []string{"a", "b", "c", "é", "\u2026digest", ""}[r.IntN(6)]
}

// mutate changes v a little, or not at all.
func mutate(r *rand.Rand, v any) any {
	switch x := v.(type) {
	case []any:
		if len(x) > 0 && r.IntN(2) == 0 {
			y := append([]any{}, x...)
			i := r.IntN(len(y))
			y[i] = mutate(r, y[i])
			return y
		}
		return append(append([]any{}, x...), nil)
	case jobj:
		if len(x) > 0 {
			y := append(jobj{}, x...)
			i := r.IntN(len(y))
			y[i].v = mutate(r, y[i].v)
			return y
		}
		return jobj{{"a", 1}}
	case jnum:
		x.digits += "1"
		return x
	case string:
		return x + "a"
	case bool:
		return !x
	}
	return false
}

// writeValueText writes v as JSON text in one of the ways that keep its
// value: members shuffled (a key given twice keeps its last value, so a
// shuffle keeps the order of one key's members), numbers in another form,
// strings with escapes, white space.
func writeValueText(r *rand.Rand, v any) string {
	var b strings.Builder
	writeText(r, &b, v)
	return b.String()
}

func writeText(r *rand.Rand, b *strings.Builder, v any) {
	if r.IntN(4) == 0 {
		b.WriteString(" ")
	}
	switch x := v.(type) {
	case nil:
		b.WriteString("null")
	case bool:
		b.WriteString(strconv.FormatBool(x))
	case int:
		b.WriteString(strconv.Itoa(x))
	case jnum:
		b.WriteString(numberText(r, x))
	case string:
		writeStringText(r, b, x)
	case []any:
		b.WriteByte('[')
		for i, e := range x {
			if i > 0 {
				b.WriteByte(',')
			}
			writeText(r, b, e)
		}
		b.WriteByte(']')
	case jobj:
		ms := shuffleMembers(r, x)
		if len(ms) > 0 && r.IntN(4) == 0 { // an earlier value of a key, overridden
			ms = append(jobj{{ms[0].k, "overridden"}}, ms...)
		}
		b.WriteByte('{')
		for i, m := range ms {
			if i > 0 {
				b.WriteByte(',')
			}
			writeStringText(r, b, m.k)
			b.WriteByte(':')
			writeText(r, b, m.v)
		}
		b.WriteByte('}')
	}
}

// shuffleMembers shuffles the distinct keys' last members: the value an
// object keeps.
func shuffleMembers(r *rand.Rand, o jobj) jobj {
	last := map[string]int{}
	for i, m := range o {
		last[m.k] = i
	}
	var ms jobj
	for i, m := range o {
		if last[m.k] == i {
			ms = append(ms, m)
		}
	}
	r.Shuffle(len(ms), func(i, j int) { ms[i], ms[j] = ms[j], ms[i] })
	return ms
}

// numberText writes n in one of its forms: shifted digits and exponent,
// trailing zeros in a fraction, E or e.
func numberText(r *rand.Rand, n jnum) string {
	digits, exp := n.digits, n.exp
	for range r.IntN(3) { // digits × 10^exp = digits0 × 10^(exp-1)
		if digits != "0" {
			digits += "0"
			exp--
		}
	}
	var s string
	switch {
	case r.IntN(2) == 0 || digits == "0":
		// digits with a decimal point placed: d.ddd e(exp+len-1)
		point := 1 + r.IntN(len(digits))
		s = digits[:point]
		if point < len(digits) {
			s += "." + digits[point:]
		}
		if e := exp + len(digits) - point; e != 0 || r.IntN(2) == 0 {
			s += []string{"e", "E", "e+"}[r.IntN(3)] + strconv.Itoa(e)
			if e < 0 {
				s = strings.Replace(s, "e+-", "e-", 1)
			}
		}
	case exp >= 0:
		s = digits + strings.Repeat("0", exp)
	default:
		s = digits + "e" + strconv.Itoa(exp)
	}
	if n.neg {
		s = "-" + s
	}
	return s
}

func writeStringText(r *rand.Rand, b *strings.Builder, s string) {
	b.WriteByte('"')
	for _, c := range s {
		switch {
		case c == '"' || c == '\\' || c < 0x20:
			fmt.Fprintf(b, `\u%04x`, c)
		case r.IntN(3) == 0 && c < 0x10000:
			fmt.Fprintf(b, `\u%04X`, c)
		case c >= 0x10000 && r.IntN(2) == 0:
			c -= 0x10000
			fmt.Fprintf(b, `\u%04x\u%04x`, 0xd800+(c>>10), 0xdc00+(c&0x3ff))
		default:
			b.WriteRune(c)
		}
	}
	b.WriteByte('"')
}
