// Package denselines writes the dense records of limits.md's memory table:
// one JSONL line, under --max-line-size, that holds millions of small values
// (issue 34, item 12). The records are deterministic, so a figure measured on
// one machine can be measured again on another, and the tests that bound
// memory build the same shapes at a smaller size.
package denselines

import (
	"bufio"
	"fmt"
	"io"
	"sort"
	"strconv"
)

// A shape writes one record of about size bytes (never more than size plus
// one element) as a single line ending in '\n'.
type shape struct {
	doc  string
	head string
	elem func(i int) string
	sep  string
	tail string
}

var shapes = map[string]shape{
	// A list of zeros in a message member no rule knows.
	"member": {
		doc:  `numbers in a message's unknown member: "extra": [0,0,…]`,
		head: `{"messages":[{"role":"user","content":"hi","extra":[`,
		elem: func(int) string { return "0" },
		sep:  ",",
		tail: `]},{"role":"assistant","content":"ok"}]}`,
	},
	// One user message whose content is millions of one-letter text parts.
	"parts": {
		doc:  `one message whose content is millions of text parts {"type":"text","text":"a"}`,
		head: `{"messages":[{"role":"user","content":[`,
		elem: func(int) string { return `{"type":"text","text":"a"}` },
		sep:  ",",
		tail: `]},{"role":"assistant","content":"ok"}]}`,
	},
	// One assistant message with a million calls, each with its own id,
	// then one tool message answering the first: the calls are well formed.
	"calls": {
		doc:  `one assistant message with about a million tool calls {"id":"cN","type":"function","function":{"name":"f","arguments":"{}"}}`,
		head: `{"messages":[{"role":"user","content":"hi"},{"role":"assistant","content":null,"tool_calls":[`,
		elem: func(i int) string {
			return `{"id":"c` + strconv.Itoa(i) + `","type":"function","function":{"name":"f","arguments":"{}"}}`
		},
		sep:  ",",
		tail: `]}]}`,
	},
	// A million short user/assistant turns in one record.
	"messages": {
		doc:  `a record of short messages {"role":"user","content":"xyz"}, user and assistant in turn`,
		head: `{"messages":[`,
		elem: func(i int) string {
			if i%2 == 0 {
				return `{"role":"user","content":"xyz"}`
			}
			return `{"role":"assistant","content":"xyz"}`
		},
		sep:  ",",
		tail: `]}`,
	},
}

// Shapes lists the shapes' names, sorted.
func Shapes() []string {
	var names []string
	for n := range shapes {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Doc says what a shape's record holds.
func Doc(name string) string { return shapes[name].doc }

// Write writes one record of the named shape, of about size bytes, and
// returns how many elements it holds.
func Write(w io.Writer, name string, size int) (int, error) {
	s, ok := shapes[name]
	if !ok {
		return 0, fmt.Errorf("unknown shape %q (have %v)", name, Shapes())
	}
	bw := bufio.NewWriterSize(w, 1<<16)
	n := len(s.head) + len(s.tail) + 1
	bw.WriteString(s.head)
	count := 0
	for i := 0; n < size || i == 0; i++ {
		if i > 0 {
			bw.WriteString(s.sep)
			n += len(s.sep)
		}
		e := s.elem(i)
		bw.WriteString(e)
		n += len(e)
		count++
	}
	bw.WriteString(s.tail)
	bw.WriteByte('\n')
	return count, bw.Flush()
}
