package astjson

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

// validInputs are decoded by Decode and by the reference and must agree.
// They also seed FuzzDecode.
var validInputs = []string{
	// scalars
	`null`, `true`, `false`, `0`, `-0`, `1`, `-1`, `7`, `42`, `512`, `513`, `999`, `-2`, `1000`,
	`0.5`, `-0.0`, `1.25`, `1e10`, `1E10`, `1e+10`, `1e-10`, `-1.5e-300`, `0e0`, `1.0`, `10.00`,
	`123456789012345678901234567890`, `-98765432109876543210.0123456789e-5`,
	`1.7976931348623157e308`, `5e-324`, `1e400`, `1e-400`, `2e30000`, `1e00007`,
	`""`, `"a"`, `"hello, world"`, `"     "`,
	// escapes
	`"\""`, `"\\"`, `"\/"`, `"\b\f\n\r\t"`, `"a\nb"`, `"\u0000"`, `"\u001f"`, `"\u0041\u00e9\u4e2d"`,
	`"\u00E9\u00e9"`, `"\uffff"`, `"\ufffd"`, `"tab\there \"quoted\" back\\slash"`,
	`"{\"location\": \"Paris\", \"unit\": \"celsius\"}"`,
	// surrogates, valid and not, as encoding/json handles them
	`"\ud83d\ude00"`, `"\uD83D\uDE00"`, `"x\ud800\udc00y"`, `"\udbff\udfff"`,
	`"\ud800"`, `"\udc00"`, `"\ud800x"`, `"\ud800\u0041"`, `"\udc00\ud800"`, `"\ud800\ud800\udc00"`,
	`"\ud800\\"`, `"\ud800\n"`, `"\ud83d"`, `"a\ude00b"`, `"\ud800\ud800"`, `"\udbff\ue000"`,
	// raw unicode
	`"é"`, `"中文字符"`, `"😀 emoji"`, `"\u00e9é"`, "\"\u2028\u2029\"", "\"\ufeff\"", "\"\U0010ffff\"",
	`"strings long enough for the word-at-a-time scan to matter: abcdefghijklmnopqrstuvwxyz"`,
	`"long with é in the middle of a long run abcdefghijklmnopqrstuvwxyz0123456789"`,
	// containers
	`[]`, `{}`, `[[]]`, `[{}]`, `{"a":{}}`, `{"a":[]}`, `[1,2,3]`, `[1,"a",true,null,{},[]]`,
	`{"a":1}`, `{"a":1,"b":2}`, `{"":""}`, `{"":1,"a":2}`, `{"a\u0000b":1}`, `{"\u00e9":1,"é":2}`,
	`{"role":"user","content":"hi"}`, `[[[[[[[[[[1]]]]]]]]]]`, `{"a":{"b":{"c":{"d":[1,{"e":null}]}}}}`,
	`[-1, -1, 0, 512, 513]`, `[1e2, 100]`, `{"n": 1.0, "m": 1}`, `[true, true, false, false]`,
	`{"a very long key that is longer than thirty-two bytes":1}`,
	// sizes around the point where members spill from the stack to the heap
	`[1,2,3,4,5,6,7,8]`, `[1,2,3,4,5,6,7,8,9]`, `[[1,2,3,4,5,6,7,8,9],[1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17]]`,
	`{"a":1,"b":2,"c":3,"d":4,"e":5,"f":6,"g":7,"h":8}`,
	`{"a":1,"b":2,"c":3,"d":4,"e":5,"f":6,"g":7,"h":8,"i":{"a":1,"b":2,"c":3,"d":4,"e":5,"f":6,"g":7,"h":8,"i":9},"j":[0,1,2,3,4,5,6,7,8,9]}`,
	`{"a":1,"b":2,"c":3,"d":4,"e":5,"f":6,"g":7,"h":8,"a":9}`,
	// duplicate keys: the last one wins
	`{"a":1,"a":2}`, `{"a":1,"b":2,"a":3}`, `{"a":[1],"a":{"x":1}}`, `{"a":1,"\u0061":2}`,
	`{"a":1,"b":2,"c":3,"a":4,"b":5,"c":6,"d":7,"a":8}`,
	`{"a":{"x":1,"x":2},"a":{"y":1,"y":3}}`,
	// whitespace
	" \t\r\n1 \t\r\n", "[ 1 , 2 ]", "{ \"a\" : 1 , \"b\" : [ ] }", "\n{\n  \"a\": [\n    1\n  ]\n}\n",
	"[\t]", "{\r}",
}

func TestDecodeMatchesReference(t *testing.T) {
	inputs := append([]string(nil), validInputs...)
	inputs = append(inputs, manyKeys(30, false), manyKeys(30, true), manyKeys(200, true))
	for _, in := range inputs {
		want, err := reference([]byte(in))
		if err != nil {
			t.Fatalf("bad test input %q: reference: %v", in, err)
		}
		got, err := Decode([]byte(in))
		if err != nil {
			t.Fatalf("Decode(%q): %v", in, err)
		}
		checkSame(t, []byte(in), got, want)
	}
}

// manyKeys builds an object with n members, repeating every key twice if dup,
// to exercise both duplicate-removal strategies.
func manyKeys(n int, dup bool) string {
	var b strings.Builder
	b.WriteString("{")
	for i := range n {
		if i > 0 {
			b.WriteString(",")
		}
		k := i
		if dup {
			k = i / 2
		}
		b.WriteString(`"key` + strings.Repeat("x", k%7) + string(rune('a'+k%26)) + `":` + strings.Repeat("1", i%5+1))
	}
	b.WriteString("}")
	return b.String()
}

// invalidInputs are rejected, each with the offset of the first problem.
var invalidInputs = []struct {
	in     string
	offset int
	msg    string // a substring of the message
}{
	// structure
	{``, 0, "unexpected end of input"},
	{`   `, 3, "unexpected end of input"},
	{`[`, 1, "unexpected end of input"},
	{`[1`, 2, "unexpected end of input"},
	{`[1,`, 3, "unexpected end of input"},
	{`{`, 1, "unexpected end of input"},
	{`{"a"`, 4, "unexpected end of input"},
	{`{"a":`, 5, "unexpected end of input"},
	{`{"a":1`, 6, "unexpected end of input"},
	{`]`, 0, "invalid character ']' looking for beginning of value"},
	{`}`, 0, "looking for beginning of value"},
	{`[1 2]`, 3, "invalid character '2' after array element"},
	{`[1:2]`, 2, "after array element"},
	{`{"a" 1}`, 5, "invalid character '1' after object key"},
	{`{"a":1 "b":2}`, 7, "after object key:value pair"},
	{`{1:2}`, 1, "looking for beginning of object key string"},
	{`{'a':1}`, 1, "invalid character '\\'' looking for beginning of object key string"},
	{`{"a":1]`, 6, "after object key:value pair"},
	{`[1}`, 2, "after array element"},
	// trailing commas
	{`[1,]`, 3, "invalid character ']' looking for beginning of value"},
	{`{"a":1,}`, 7, "invalid character '}' looking for beginning of object key string"},
	{`[,]`, 1, "looking for beginning of value"},
	{`{,}`, 1, "looking for beginning of object key string"},
	// trailing garbage
	{`1 2`, 2, "invalid character '2' after top-level value"},
	{`{}{}`, 2, "after top-level value"},
	{`[] x`, 3, "after top-level value"},
	{`truex`, 4, "after top-level value"},
	{`"a"b`, 3, "after top-level value"},
	{"1\x00", 1, "invalid character '\\x00' after top-level value"},
	// numbers
	{`01`, 1, "invalid character '1' after top-level value"},
	{`-01`, 2, "after top-level value"},
	{`00`, 1, "after top-level value"},
	{`[01]`, 2, "after array element"},
	{`+1`, 0, "looking for beginning of value"},
	{`-`, 1, "unexpected end of input"},
	{`-a`, 1, "invalid character 'a' in numeric literal"},
	{`.5`, 0, "looking for beginning of value"},
	{`1.`, 2, "unexpected end of input"},
	{`1.e5`, 2, "after decimal point in numeric literal"},
	{`1e`, 2, "unexpected end of input"},
	{`1e+`, 3, "unexpected end of input"},
	{`1ea`, 2, "in exponent of numeric literal"},
	{`[1.]`, 3, "after decimal point"},
	{`0x10`, 1, "after top-level value"},
	{`1_000`, 1, "after top-level value"},
	{`NaN`, 0, "invalid character 'N' looking for beginning of value"},
	{`-Infinity`, 1, "in numeric literal"},
	{`Infinity`, 0, "looking for beginning of value"},
	// literals
	{`tru`, 3, "unexpected end of input"},
	{`trUe`, 2, "invalid character 'U' in literal true (expecting 'u')"},
	{`nul`, 3, "unexpected end of input"},
	{`nulL`, 3, "in literal null (expecting 'l')"},
	{`fals`, 4, "unexpected end of input"},
	{`True`, 0, "looking for beginning of value"},
	{`undefined`, 0, "looking for beginning of value"},
	// strings
	{`"`, 1, "unexpected end of input"},
	{`"abc`, 4, "unexpected end of input"},
	{`"abcdefghijklmnop`, 17, "unexpected end of input"},
	{`'a'`, 0, "looking for beginning of value"},
	{"\"a\tb\"", 2, "invalid character '\\t' in string literal"},
	{"\"a\nb\"", 2, "in string literal"},
	{"\"abcdefghijklmnopq\x01\"", 18, "in string literal"},
	{"\"\x7f\x00\"", 2, "in string literal"},
	{`"\x41"`, 2, "invalid character 'x' in string escape code"},
	{`"\'"`, 2, "in string escape code"},
	{`"\a"`, 2, "in string escape code"},
	{`"\U0041"`, 2, "in string escape code"},
	{`"\u12"`, 5, "invalid character '\"' in \\u hexadecimal character escape"},
	{`"\u12g4"`, 5, "in \\u hexadecimal character escape"},
	{`"\u`, 3, "unexpected end of input"},
	{`"\`, 2, "unexpected end of input"},
	{`"\ud800\u12"`, 11, "in \\u hexadecimal character escape"},
	{`"\ud800\x"`, 8, "in string escape code"},
	{"\"a\\nb\tc\"", 5, "in string literal"},
	// invalid UTF-8, inside and outside strings
	{"\"\xff\"", 1, "invalid UTF-8"},
	{"\"abc\xc3\"", 4, "invalid UTF-8"},
	{"\"abcdefghijk\xe4\xb8\"", 12, "invalid UTF-8"},
	{"\"\xed\xa0\x80\"", 1, "invalid UTF-8"},             // an encoded surrogate
	{"\"\xc0\xaf\"", 1, "invalid UTF-8"},                 // overlong
	{"\"\xf4\x90\x80\x80\"", 1, "invalid UTF-8"},         // above U+10FFFF
	{"\"\\n\xff\"", 3, "invalid UTF-8"},                  // after an escape
	{"{\"k\xff\":1}", 3, "invalid UTF-8"},                // in a key
	{"\xff", 0, "invalid UTF-8"},                         // outside strings
	{"[1,\xe9]", 3, "invalid UTF-8"},                     // Latin-1 é
	{"\xef\xbb\xbf{}", 0, "invalid character '\\ufeff'"}, // a byte order mark
	{"[1]\xc3\xa9", 3, "invalid character 'é' after top-level value"},
	// comments and other extensions
	{`// c` + "\n1", 0, "looking for beginning of value"},
	{`/* c */ 1`, 0, "looking for beginning of value"},
	{`1 // c`, 2, "after top-level value"},
	{`{a:1}`, 1, "looking for beginning of object key string"},
	{"\v1", 0, "looking for beginning of value"},
	{"\u00a01", 0, "looking for beginning of value"},
}

// TestDecodeRange checks that valid JSON with a number OPA refuses (as
// ast.InterfaceToValue does) is a *RangeError naming the number.
func TestDecodeRange(t *testing.T) {
	for _, tc := range []struct {
		in     string
		offset int
		number string
	}{
		{`1e999999`, 0, "1e999999"},
		{`[0, -1E-999999]`, 4, "-1E-999999"},
		{`{"n": 1` + strings.Repeat("0", 50) + `e999999}`, 6, "1" + strings.Repeat("0", 36) + "..."},
	} {
		if _, err := reference([]byte(tc.in)); err == nil {
			t.Errorf("bad test input %q: the reference accepts it", tc.in)
		}
		v, err := Decode([]byte(tc.in))
		var re *RangeError
		if !errors.As(err, &re) || v != nil {
			t.Errorf("Decode(%q) = %v, %v; want a *RangeError", tc.in, v, err)
			continue
		}
		if re.Offset != tc.offset || re.Number != tc.number {
			t.Errorf("Decode(%q): offset %d, number %q; want %d, %q", tc.in, re.Offset, re.Number, tc.offset, tc.number)
		}
	}
}

func TestDecodeErrors(t *testing.T) {
	for _, tc := range invalidInputs {
		in := []byte(tc.in)
		if _, err := reference(in); err == nil {
			t.Errorf("bad test input %q: the reference accepts it", tc.in)
		}
		v, err := Decode(in)
		var se *SyntaxError
		if !errors.As(err, &se) {
			t.Errorf("Decode(%q) = %v, %v; want a *SyntaxError", tc.in, v, err)
			continue
		}
		if v != nil {
			t.Errorf("Decode(%q) returned a value with its error: %v", tc.in, v)
		}
		if se.Offset != tc.offset || !strings.Contains(se.Msg, tc.msg) {
			t.Errorf("Decode(%q) error = {%d, %q}; want offset %d and a message containing %q",
				tc.in, se.Offset, se.Msg, tc.offset, tc.msg)
		}
	}
}

func TestDecodeDepth(t *testing.T) {
	for _, tc := range []struct {
		open, close string
	}{{"[", "]"}, {`{"a":`, "}"}} {
		ok := strings.Repeat(tc.open, maxDepth) + "1" + strings.Repeat(tc.close, maxDepth)
		got, err := Decode([]byte(ok))
		if err != nil {
			t.Fatalf("nesting %d deep: %v", maxDepth, err)
		}
		want, err := reference([]byte(ok))
		if err != nil {
			t.Fatalf("reference at depth %d: %v", maxDepth, err)
		}
		checkSame(t, []byte("(deep)"), got, want)

		deep := strings.Repeat(tc.open, maxDepth+1) + "1" + strings.Repeat(tc.close, maxDepth+1)
		if json.Valid([]byte(deep)) {
			t.Fatalf("encoding/json accepts nesting %d deep", maxDepth+1)
		}
		_, err = Decode([]byte(deep))
		var se *SyntaxError
		if !errors.As(err, &se) || se.Offset != maxDepth*len(tc.open) || !strings.Contains(se.Msg, "max depth") {
			t.Fatalf("nesting %d deep: got %v, want max depth error at %d", maxDepth+1, err, maxDepth*len(tc.open))
		}
	}
	// Hostile input far beyond the limit must fail fast, not exhaust the stack.
	if _, err := Decode([]byte(strings.Repeat("[", 10_000_000))); err == nil {
		t.Fatal("10M open brackets decoded")
	}
}

// TestDecodeConcurrent decodes from many goroutines at once; with -race it
// checks the intern cache and the decoder pool.
func TestDecodeConcurrent(t *testing.T) {
	rec := []byte(chatRecord)
	want, err := reference(rec)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	for g := range 8 {
		go func() {
			defer func() { done <- struct{}{} }()
			for i := range 50 {
				in, isRecord := rec, true
				if (g+i)%3 == 0 {
					in, isRecord = []byte(validInputs[(g*50+i)%len(validInputs)]), false
				}
				got, err := Decode(in)
				if err != nil {
					t.Error(err)
					return
				}
				if isRecord && (got.Compare(want) != 0 || got.Hash() != want.Hash()) {
					t.Error("concurrent decode differs from the reference")
					return
				}
			}
		}()
	}
	for range 8 {
		<-done
	}
}

// TestSurrogateCombinations decodes every sequence of up to four pieces drawn
// from surrogate escapes, their neighbours and plain text, and compares with
// the reference, which defines how unpaired surrogates become U+FFFD.
func TestSurrogateCombinations(t *testing.T) {
	pieces := []string{`\ud800`, `\udbff`, `\udc00`, `\udfff`, `\ud7ff`, `\ue000`, `\u0041`, `x`, `\n`, `é`}
	var gen func(prefix string, n int)
	gen = func(prefix string, n int) {
		in := []byte(`"` + prefix + `"`)
		want, err := reference(in)
		if err != nil {
			t.Fatalf("reference(%s): %v", in, err)
		}
		got, err := Decode(in)
		if err != nil {
			t.Fatalf("Decode(%s): %v", in, err)
		}
		checkSame(t, in, got, want)
		if n == 0 {
			return
		}
		for _, p := range pieces {
			gen(prefix+p, n-1)
		}
	}
	gen("", 4)
}
