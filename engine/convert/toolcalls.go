package convert

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/chatlint/chatlint/engine/jsonv"
)

// inlineToolCalls rewrites messages into the inline representation of
// --json-tool-calls, as the reference writes it: an assistant message with
// tool calls gets each call as a <tool_call>{"name": N, "arguments": A}</tool_call>
// line after its text, and a tool message with a tool_call_id has its text
// wrapped in <tool_result tool_call_id="ID">…</tool_result>. Other members
// stay, in order, null ones dropped.
func inlineToolCalls(msgs []*jsonv.Object) []*jsonv.Object {
	out := make([]*jsonv.Object, len(msgs))
	for i, m := range msgs {
		role := get(m, "role")
		switch {
		case role == "assistant" && truthy(get(m, "tool_calls")):
			out[i] = inlineAssistant(m)
		case role == "tool" && truthy(get(m, "tool_call_id")):
			out[i] = inlineResult(m)
		default:
			out[i] = withoutNulls(m)
		}
	}
	return out
}

func inlineAssistant(m *jsonv.Object) *jsonv.Object {
	var parts []string
	if c := get(m, "content"); truthy(c) {
		if s, ok := contentText(c); ok {
			parts = append(parts, s)
		}
	}
	calls, _ := get(m, "tool_calls").([]jsonv.Value)
	if s := serializeCalls(calls); s != "" {
		parts = append(parts, s)
	}
	nonEmpty := parts[:0]
	for _, p := range parts {
		if p != "" {
			nonEmpty = append(nonEmpty, p)
		}
	}
	out := &jsonv.Object{Members: []jsonv.Member{{Key: "role", Value: "assistant"}}}
	if text := pyStrip(strings.Join(nonEmpty, "\n")); text != "" {
		out.Members = append(out.Members, jsonv.Member{Key: "content", Value: text})
	}
	for _, mem := range m.Members {
		if mem.Key == "role" || mem.Key == "content" || mem.Key == "tool_calls" || mem.Value == nil {
			continue
		}
		out.Members = append(out.Members, mem)
	}
	return out
}

// serializeCalls writes one <tool_call> line per call that has a function
// object with a string name; arguments given as a JSON string are parsed.
func serializeCalls(calls []jsonv.Value) string {
	var lines []string
	for _, c := range calls {
		co, _ := c.(*jsonv.Object)
		fn, ok := get(co, "function").(*jsonv.Object)
		if !ok {
			continue
		}
		name, ok := get(fn, "name").(string)
		if !ok {
			continue
		}
		args := get(fn, "arguments")
		if s, ok := args.(string); ok {
			if v, err := decodePython([]byte(s)); err == nil {
				args = v
			}
		}
		payload := &jsonv.Object{Members: []jsonv.Member{{Key: "name", Value: name}, {Key: "arguments", Value: args}}}
		var b bytes.Buffer
		b.WriteString("<tool_call>")
		jsonv.Append(&b, payload, jsonv.Python)
		b.WriteString("</tool_call>")
		lines = append(lines, b.String())
	}
	return strings.Join(lines, "\n")
}

func inlineResult(m *jsonv.Object) *jsonv.Object {
	id, _ := get(m, "tool_call_id").(string)
	text := ""
	if c := get(m, "content"); truthy(c) {
		text, _ = contentText(c)
	}
	out := &jsonv.Object{Members: []jsonv.Member{
		{Key: "role", Value: "tool"},
		{Key: "content", Value: `<tool_result tool_call_id="` + id + `">` + text + `</tool_result>`},
	}}
	for _, mem := range m.Members {
		if mem.Key == "role" || mem.Key == "content" || mem.Key == "tool_call_id" || mem.Value == nil {
			continue
		}
		out.Members = append(out.Members, mem)
	}
	return out
}

func withoutNulls(m *jsonv.Object) *jsonv.Object {
	for _, mem := range m.Members {
		if mem.Value == nil {
			out := &jsonv.Object{}
			for _, mem := range m.Members {
				if mem.Value != nil {
					out.Members = append(out.Members, mem)
				}
			}
			return out
		}
	}
	return m
}

// truthy is Python's truth value of a JSON value.
func truthy(v jsonv.Value) bool {
	switch t := v.(type) {
	case nil:
		return false
	case bool:
		return t
	case string:
		return t != ""
	case []jsonv.Value:
		return len(t) > 0
	case *jsonv.Object:
		return len(t.Members) > 0
	}
	if n, ok := v.(json.Number); ok {
		return !isZeroNumber(string(n))
	}
	return true
}

func isZeroNumber(n string) bool {
	mant := n
	if i := strings.IndexAny(n, "eE"); i >= 0 {
		mant = n[:i]
	}
	return strings.Trim(mant, "-+0.") == ""
}
