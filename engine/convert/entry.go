package convert

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/chatlint/chatlint/engine/jsonv"
)

// Entry is one request/response log line the reference's model accepts.
type Entry struct {
	Line      int // 1-based line in its file
	Time      Timestamp
	SessionID string
	// Messages are request.messages as the model dumps them: role, content,
	// name, tool_calls, tool_call_id first, then the other keys in input
	// order, members that are null left out.
	Messages []*jsonv.Object
	// Tools are the request.tools objects as given.
	Tools []*jsonv.Object
	// Response is the response object, nil when there is none.
	Response *jsonv.Object
	// Status is the response's HTTP status as the proxy-log adapter reads
	// it, 0 when the line has none.
	Status int
}

// Reply returns response.choices[0].message, dumped like a request message,
// or nil.
func (e *Entry) Reply() *jsonv.Object {
	if e.Response == nil {
		return nil
	}
	choices, _ := get(e.Response, "choices").([]jsonv.Value)
	if len(choices) == 0 {
		return nil
	}
	m, _ := get(choices[0].(*jsonv.Object), "message").(*jsonv.Object)
	return m
}

// invalid says why the model rejects an entry.
type invalid struct{ path, why string }

func (e *invalid) Error() string { return e.path + " " + e.why }

func reject(path, why string) error { return &invalid{path, why} }

// parseEntry checks one decoded line against the reference's entry model
// (pydantic, lax mode) and returns the entry it would hold.
func parseEntry(line int, v jsonv.Value) (*Entry, error) {
	o, ok := v.(*jsonv.Object)
	if !ok {
		return nil, reject("the line", "is "+typeName(v)+", not an object")
	}
	e := &Entry{Line: line}
	ts, ok := o.Get("timestamp")
	if !ok {
		return nil, reject("timestamp", "is missing")
	}
	if e.Time, ok = parseTimestamp(ts); !ok {
		return nil, reject("timestamp", "is not a date-time: "+short(ts))
	}
	sid, _ := o.Get("session_id")
	if e.SessionID, ok = sid.(string); !ok {
		return nil, reject("session_id", missingOr(o, "session_id", "is not a string"))
	}
	req, ok := get(o, "request").(*jsonv.Object)
	if !ok {
		return nil, reject("request", missingOr(o, "request", "is not an object"))
	}
	if err := checkRequest(req); err != nil {
		return nil, err
	}
	msgs := get(req, "messages").([]jsonv.Value)
	for i, m := range msgs {
		dumped, err := dumpMessage(m, fmt.Sprintf("request.messages[%d]", i))
		if err != nil {
			return nil, err
		}
		e.Messages = append(e.Messages, dumped)
	}
	if tools, ok := get(req, "tools").([]jsonv.Value); ok {
		for _, t := range tools {
			e.Tools = append(e.Tools, t.(*jsonv.Object))
		}
	}
	if resp := get(o, "response"); resp != nil {
		r, ok := resp.(*jsonv.Object)
		if !ok {
			return nil, reject("response", "is not an object")
		}
		if err := checkResponse(r); err != nil {
			return nil, err
		}
		e.Response = r
	}
	return e, nil
}

// checkRequest validates the request model; it rewrites each tool and leaves
// messages to dumpMessage.
func checkRequest(req *jsonv.Object) error {
	if _, ok := get(req, "model").(string); !ok {
		return reject("request.model", missingOr(req, "model", "is not a string"))
	}
	if _, ok := get(req, "messages").([]jsonv.Value); !ok {
		return reject("request.messages", missingOr(req, "messages", "is not a list"))
	}
	if t := get(req, "tools"); t != nil {
		tools, ok := t.([]jsonv.Value)
		if !ok {
			return reject("request.tools", "is not a list")
		}
		for i, tv := range tools {
			path := fmt.Sprintf("request.tools[%d]", i)
			tool, ok := tv.(*jsonv.Object)
			if !ok {
				return reject(path, "is not an object")
			}
			if _, ok := get(tool, "function").(*jsonv.Object); !ok {
				return reject(path+".function", missingOr(tool, "function", "is not an object"))
			}
			if typ, ok := tool.Get("type"); ok {
				if _, ok := typ.(string); !ok {
					return reject(path+".type", "is not a string")
				}
			}
		}
	}
	checks := []struct {
		key string
		ok  func(jsonv.Value) bool
	}{
		{"temperature", laxFloat}, {"top_p", laxFloat}, {"presence_penalty", laxFloat}, {"frequency_penalty", laxFloat},
		{"n", laxInt}, {"max_tokens", laxInt}, {"stream", laxBool},
		{"stop", func(v jsonv.Value) bool { return isString(v) || listOf(v, isString) }},
		{"logit_bias", func(v jsonv.Value) bool {
			o, ok := v.(*jsonv.Object)
			if !ok {
				return false
			}
			for _, m := range o.Members {
				if !laxFloat(m.Value) {
					return false
				}
			}
			return true
		}},
		{"user", isString},
		{"tool_choice", func(v jsonv.Value) bool { return isString(v) || isObject(v) }},
		{"response_format", isObject},
	}
	for _, c := range checks {
		if v := get(req, c.key); v != nil && !c.ok(v) {
			return reject("request."+c.key, "has the wrong type: "+short(v))
		}
	}
	return nil
}

func checkResponse(r *jsonv.Object) error {
	if _, ok := get(r, "id").(string); !ok {
		return reject("response.id", missingOr(r, "id", "is not a string"))
	}
	if v, ok := r.Get("object"); ok && !isString(v) {
		return reject("response.object", "is not a string")
	}
	for _, k := range []string{"model"} {
		if v := get(r, k); v != nil && !isString(v) {
			return reject("response."+k, "is not a string")
		}
	}
	if v := get(r, "created"); v != nil && !laxInt(v) {
		return reject("response.created", "is not an integer")
	}
	if v := get(r, "usage"); v != nil && !isObject(v) {
		return reject("response.usage", "is not an object")
	}
	choices, ok := get(r, "choices").([]jsonv.Value)
	if !ok {
		return reject("response.choices", missingOr(r, "choices", "is not a list"))
	}
	for i, cv := range choices {
		path := fmt.Sprintf("response.choices[%d]", i)
		c, ok := cv.(*jsonv.Object)
		if !ok {
			return reject(path, "is not an object")
		}
		if idx, ok := c.Get("index"); !ok || !laxInt(idx) {
			return reject(path+".index", missingOr(c, "index", "is not an integer"))
		}
		if v := get(c, "finish_reason"); v != nil && !isString(v) {
			return reject(path+".finish_reason", "is not a string")
		}
		m, ok := c.Get("message")
		if !ok {
			return reject(path+".message", "is missing")
		}
		dumped, err := dumpMessage(m, path+".message")
		if err != nil {
			return err
		}
		c.Set("message", dumped)
	}
	return nil
}

// messageFields are the message model's declared fields, in the order a dump
// writes them.
var messageFields = []string{"role", "content", "name", "tool_calls", "tool_call_id"}

// dumpMessage validates a message and returns it as the model dumps it with
// exclude_none.
func dumpMessage(v jsonv.Value, path string) (*jsonv.Object, error) {
	m, ok := v.(*jsonv.Object)
	if !ok {
		return nil, reject(path, "is not an object")
	}
	if _, ok := get(m, "role").(string); !ok {
		return nil, reject(path+".role", missingOr(m, "role", "is not a string"))
	}
	switch c := get(m, "content").(type) {
	case nil, string, []jsonv.Value:
	default:
		return nil, reject(path+".content", "is "+typeName(c)+", not a string or a list")
	}
	for _, k := range []string{"name", "tool_call_id"} {
		if x := get(m, k); x != nil && !isString(x) {
			return nil, reject(path+"."+k, "is not a string")
		}
	}
	if x := get(m, "tool_calls"); x != nil && !listOf(x, isObject) {
		return nil, reject(path+".tool_calls", "is not a list of objects")
	}
	out := &jsonv.Object{Members: make([]jsonv.Member, 0, len(m.Members))}
	for _, k := range messageFields {
		if x := get(m, k); x != nil {
			out.Members = append(out.Members, jsonv.Member{Key: k, Value: x})
		}
	}
	for _, mem := range m.Members {
		if mem.Value == nil || isMessageField(mem.Key) {
			continue
		}
		out.Members = append(out.Members, mem)
	}
	return out, nil
}

func isMessageField(k string) bool {
	for _, f := range messageFields {
		if f == k {
			return true
		}
	}
	return false
}

// get returns a member's value, nil when absent.
func get(o *jsonv.Object, key string) jsonv.Value {
	if o == nil {
		return nil
	}
	v, _ := o.Get(key)
	return v
}

func missingOr(o *jsonv.Object, key, why string) string {
	if _, ok := o.Get(key); !ok {
		return "is missing"
	}
	return why
}

func isString(v jsonv.Value) bool { _, ok := v.(string); return ok }
func isObject(v jsonv.Value) bool { _, ok := v.(*jsonv.Object); return ok }

func listOf(v jsonv.Value, each func(jsonv.Value) bool) bool {
	l, ok := v.([]jsonv.Value)
	if !ok {
		return false
	}
	for _, e := range l {
		if !each(e) {
			return false
		}
	}
	return true
}

// Lax-mode scalars: what pydantic turns into a float, an int or a bool.
var (
	numericString = regexp.MustCompile(`^\s*[-+]?(?:\d(?:_?\d)*(?:\.(?:\d(?:_?\d)*)?)?|\.\d(?:_?\d)*)(?:[eE][-+]?\d(?:_?\d)*)?\s*$`)
	intString     = regexp.MustCompile(`^\s*[-+]?\d(?:_?\d)*(?:\.0+)?\s*$`)
)

func laxFloat(v jsonv.Value) bool {
	switch t := v.(type) {
	case json.Number, bool:
		return true
	case string:
		s := strings.ToLower(strings.TrimSpace(t))
		return numericString.MatchString(t) || s == "nan" || s == "inf" || s == "-inf" || s == "infinity" || s == "-infinity"
	}
	return false
}

func laxInt(v jsonv.Value) bool {
	switch t := v.(type) {
	case bool:
		return true
	case json.Number:
		f, err := strconv.ParseFloat(string(t), 64)
		return err == nil && f == float64(int64(f))
	case string:
		return intString.MatchString(t)
	}
	return false
}

func laxBool(v jsonv.Value) bool {
	switch t := v.(type) {
	case bool:
		return true
	case json.Number:
		f, err := strconv.ParseFloat(string(t), 64)
		return err == nil && (f == 0 || f == 1)
	case string:
		switch strings.ToLower(t) {
		case "0", "1", "true", "false", "yes", "no", "on", "off", "t", "f", "y", "n":
			return true
		}
	}
	return false
}

func typeName(v jsonv.Value) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "a boolean"
	case json.Number:
		return "a number"
	case string:
		return "a string"
	case []jsonv.Value:
		return "a list"
	case *jsonv.Object:
		return "an object"
	}
	return "unknown"
}

// short renders a value for a message, cut at 60 bytes.
func short(v jsonv.Value) string {
	s := string(jsonv.Marshal(v, jsonv.Compact))
	if len(s) > 60 {
		s = s[:57] + "..."
	}
	return s
}
