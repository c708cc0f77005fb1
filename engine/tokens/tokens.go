// Package tokens counts the tokens of a training example offline, with the
// tokenizers OpenAI models use (tiktoken's o200k_base and cl100k_base,
// embedded: nothing is downloaded at run time). It counts as the OpenAI
// cookbook's data-preparation notebook does, from the normalized document,
// so every input format is counted the same way:
//
//   - each message: 3 tokens, plus the tokens of its role, its text, its
//     tool_call_id when it has one, and its name (+1 when it has a name);
//   - each tool call of a message (the cookbook does not count them; this is
//     our approximation): 3 tokens plus the tokens of its function name and
//     of its arguments text (arguments given as an object: their compact JSON);
//   - 3 tokens of reply priming per example;
//   - the tool definitions, as the cookbook's function-calling estimate
//     counts them: per function a start cost (7 with o200k_base, 10 with
//     cl100k_base) and the tokens of "name:description" (a trailing period
//     dropped); when it has properties 3, then per property 3 plus the tokens
//     of "key:type:description", and for an enum -3 plus per item 3 and its
//     tokens; 12 after the last function.
//
// The platform's own count differs by a few tokens per example; the
// estimate is for limits and costs, not for billing to the token.
//
// Tokens are counted offline with tiktoken's split and byte-pair merge over
// tiktoken-go's rank tables (split.go, bpe.go, ranks.go); the counts are
// tiktoken-go's to the token. Nothing can interrupt a count: one 10 MB
// message took 12-21 s with tiktoken-go, outside any rule's time limit. So
// the first ExactBytes of an example's text are tokenized and the rest is
// estimated at the rate those gave (tokens per byte). An example that long
// is far past every model's limit, so the verdicts do
// not change; its count is an estimate, as the platform's is.
package tokens

import (
	"strings"
	"sync"
	"sync/atomic"
	"unicode/utf8"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/chatlint/chatlint/engine/astjson"
)

// Encodings are the encodings a model table may name.
var Encodings = []string{"o200k_base", "cl100k_base"}

// counted is the number of examples counted since the program started.
var counted atomic.Int64

// Examples returns how many examples were counted since the program
// started: a test proves with it that a run whose rules never ask for
// tokens never tokenizes.
func Examples() int64 { return counted.Load() }

// ExactBytes is how many bytes of one example's text are tokenized; the
// rest is estimated. 256 KiB is past the longest example a model takes
// (65,536 tokens are about 260 KB of English) and tokenizes in well under
// a second even in one word.
const ExactBytes = 256 << 10

// Counter counts examples in one encoding. It holds no state of a count:
// workers share one.
type Counter struct {
	ranks    *ranks
	next     splitter
	classes  *classTable
	funcInit int
	cache    *cache     // counts of the strings already tokenized
	tools    toolsCache // counts of the tools lists records share
}

// NewCounter returns a counter for the encoding.
func NewCounter(encoding string) (*Counter, error) {
	r, err := rankTable(encoding)
	if err != nil {
		return nil, err
	}
	c := &Counter{ranks: r, next: nextO200k, classes: classes(), funcInit: 7, cache: newCache()} // the cookbook's gpt-4o figures
	if encoding == "cl100k_base" {
		c.next, c.funcInit = nextCl100k, 10 // gpt-3.5-turbo, gpt-4
	}
	return c, nil
}

var shared sync.Map // encoding name → *Counter

// Shared returns the counter of the encoding that the whole program shares,
// so that its cache of counts outlives one call: a rule that counts each
// document (chatlint.example_tokens) uses it.
func Shared(encoding string) (*Counter, error) {
	if c, ok := shared.Load(encoding); ok {
		return c.(*Counter), nil
	}
	c, err := NewCounter(encoding)
	if err != nil {
		return nil, err
	}
	got, _ := shared.LoadOrStore(encoding, c)
	return got.(*Counter), nil
}

// Text counts the tokens of a string: its first ExactBytes tokenized, the
// rest estimated.
func (c *Counter) Text(s string) int {
	return c.budget().text(s)
}

func (c *Counter) exact(s string) int {
	if s == "" {
		return 0
	}
	return c.cache.count(s, c.tokenize)
}

// tokenize counts the tokens of s as tiktoken-go's Count does: split in
// pieces, each piece merged.
func (c *Counter) tokenize(s string) int {
	if !utf8.ValidString(s) {
		// What regexp2 reads: one U+FFFD per byte of an invalid sequence.
		s = string([]rune(s))
	}
	n := 0
	for i := 0; i < len(s); {
		j := c.next(c.classes, s, i)
		if j == i {
			_, w := utf8.DecodeRuneInString(s[i:])
			i += w
			continue
		}
		n += c.ranks.count(s[i:j])
		i = j
	}
	return n
}

// count is one count in progress: the bytes it may still tokenize and the
// tokens and bytes it tokenized, whose ratio estimates the rest.
type count struct {
	c           *Counter
	left        int
	tokens, len int
	estimated   bool // a text was estimated, not all tokenized
}

func (c *Counter) budget() *count { return &count{c: c, left: ExactBytes} }

func (k *count) text(s string) int {
	if len(s) <= k.left {
		n := k.c.exact(s)
		k.left -= len(s)
		k.tokens += n
		k.len += len(s)
		return n
	}
	head := s[:runeStart(s, k.left)]
	n := k.c.exact(head)
	k.left, k.estimated = 0, true
	k.tokens += n
	k.len += len(head)
	rest := int64(len(s) - len(head))
	if k.len == 0 || k.tokens == 0 { // nothing measured: tiktoken's rule of thumb, 4 bytes a token
		return n + int((rest+3)/4)
	}
	return n + int((rest*int64(k.tokens)+int64(k.len)-1)/int64(k.len))
}

// runeStart is the largest i <= n that starts a rune of s (or len(s)).
func runeStart(s string, n int) int {
	if n >= len(s) {
		return len(s)
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return n
}

// Priming is the tokens Document counts once per example, for the reply's
// priming, whatever its messages.
const Priming = 3

// Document counts one training example: a normalized document (see the
// package comment for what is counted).
func (c *Counter) Document(doc ast.Object) int {
	counted.Add(1)
	return c.budget().document(doc)
}

func (c *count) document(doc ast.Object) int {
	n := Priming
	if ms, ok := field(doc, kMessages).(*ast.Array); ok {
		for i := 0; i < ms.Len(); i++ {
			if m, ok := ms.Elem(i).Value.(ast.Object); ok {
				n += c.message(m)
			}
		}
	}
	if ts, ok := field(doc, kTools).(*ast.Array); ok && ts.Len() > 0 {
		n += c.tools(ts)
	}
	return n
}

func (c *count) message(m ast.Object) int {
	n := 3 + c.text(str(m, kRole)) + c.text(str(m, kText)) + c.text(str(m, kToolCallId))
	if raw, ok := field(m, kRaw).(ast.Object); ok {
		if name := str(raw, kName); name != "" {
			n += c.text(name) + 1
		}
	}
	if calls, ok := field(m, kToolCalls).(*ast.Array); ok {
		for i := 0; i < calls.Len(); i++ {
			call, ok := calls.Elem(i).Value.(ast.Object)
			if !ok {
				continue
			}
			n += 3 + c.text(str(call, kName))
			switch a := field(call, kArguments).(type) {
			case ast.String:
				n += c.text(string(a))
			case nil, ast.Null:
			default:
				n += c.text(astjson.Compact(a))
			}
		}
	}
	return n
}

// tools is the cookbook's function-calling estimate of the definitions:
// the count kept for the list (tools.go), or the list counted.
func (c *count) tools(ts *ast.Array) int {
	if e := c.c.tools.get(ts); e != nil && e.size <= c.left {
		c.left -= e.size
		c.tokens += e.textTokens
		c.len += e.size
		return e.n
	}
	before := *c
	n := c.countTools(ts)
	if !c.estimated {
		c.c.tools.put(&toolsCount{tools: ts, n: n, textTokens: c.tokens - before.tokens, size: c.len - before.len})
	}
	return n
}

func (c *count) countTools(ts *ast.Array) int {
	n := 0
	for i := 0; i < ts.Len(); i++ {
		t, ok := ts.Elem(i).Value.(ast.Object)
		if !ok {
			continue
		}
		fn, _ := field(t, kFunction).(ast.Object)
		n += c.c.funcInit + c.text(str(t, kName)+":"+strings.TrimSuffix(str(fn, kDescription), "."))
		params, _ := field(t, kParameters).(ast.Object)
		props, _ := field(params, kProperties).(ast.Object)
		if props == nil || props.Len() == 0 {
			continue
		}
		n += 3
		props.Foreach(func(k, v *ast.Term) {
			key, _ := k.Value.(ast.String)
			p, _ := v.Value.(ast.Object)
			n += 3
			if enum, ok := field(p, kEnum).(*ast.Array); ok {
				n -= 3
				for j := 0; j < enum.Len(); j++ {
					n += 3
					if s, ok := enum.Elem(j).Value.(ast.String); ok {
						n += c.text(string(s))
					} else {
						n += c.text(enum.Elem(j).String())
					}
				}
			}
			typ := str(p, kType)
			n += c.text(string(key) + ":" + typ + ":" + strings.TrimSuffix(str(p, kDescription), "."))
		})
	}
	return n + 12
}

// The keys Document reads, made once: a lookup with a new term each time
// allocated it for every field of every message.
var (
	kMessages    = ast.StringTerm("messages")
	kTools       = ast.StringTerm("tools")
	kRole        = ast.StringTerm("role")
	kText        = ast.StringTerm("text")
	kToolCallId  = ast.StringTerm("tool_call_id")
	kRaw         = ast.StringTerm("raw")
	kName        = ast.StringTerm("name")
	kToolCalls   = ast.StringTerm("tool_calls")
	kArguments   = ast.StringTerm("arguments")
	kFunction    = ast.StringTerm("function")
	kDescription = ast.StringTerm("description")
	kParameters  = ast.StringTerm("parameters")
	kProperties  = ast.StringTerm("properties")
	kEnum        = ast.StringTerm("enum")
	kType        = ast.StringTerm("type")
)

func field(o ast.Object, k *ast.Term) ast.Value {
	if o == nil {
		return nil
	}
	t := o.Get(k)
	if t == nil {
		return nil
	}
	return t.Value
}

func str(o ast.Object, k *ast.Term) string {
	s, _ := field(o, k).(ast.String)
	return string(s)
}
