package document

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/chatlint/chatlint/engine/astjson"
)

const (
	modeInline     = "inline"
	modeStructured = "structured"

	tagCallOpen    = "<tool_call>"
	tagCallClose   = "</tool_call>"
	tagResultStart = "<tool_result"
)

// CheckToolCalls accepts a forced tool-call representation: "" (detect it
// per record), "inline" or "structured".
func CheckToolCalls(s string) error {
	switch s {
	case "", modeInline, modeStructured:
		return nil
	}
	return fmt.Errorf("want %s or %s, not %q", modeInline, modeStructured, s)
}

// detectMode decides a record's tool-call representation: inline
// when any assistant text holds a <tool_call> tag or any tool message text
// starts with <tool_result.
func detectMode(ms []message, forced string) string {
	if forced != "" {
		return forced
	}
	for i := range ms {
		switch ms[i].role {
		case "assistant":
			if strings.Contains(ms[i].text, tagCallOpen) {
				return modeInline
			}
		case "tool":
			if strings.HasPrefix(ms[i].text, tagResultStart) {
				return modeInline
			}
		}
	}
	return modeStructured
}

var resultIDAttr = regexp.MustCompile(`^<tool_result\s+tool_call_id="([^"]*)"`)

// parseInline reads tool calls from <tool_call>{…}</tool_call> payloads in
// assistant text and call ids from <tool_result tool_call_id="…"> tags.
// Inline payloads carry no id, so a call without one takes the id of the
// result at the same position in its block (or inline-M-K when none).
func parseInline(ms []message) {
	for i := range ms {
		if ms[i].role != "tool" {
			continue
		}
		if sub := resultIDAttr.FindStringSubmatch(ms[i].text); sub != nil {
			ms[i].callID = ast.StringTerm(sub[1])
		}
	}
	for i := range ms {
		m := &ms[i]
		if m.role != "assistant" || !strings.Contains(m.text, tagCallOpen) {
			continue
		}
		var results []string // ids of the results of this block, in order
		for j := i + 1; j < len(ms) && ms[j].role != "assistant"; j++ {
			if ms[j].role == "tool" {
				id, _ := idString(ms[j].callID)
				results = append(results, id)
			}
		}
		rest := m.text
		for k := 0; ; k++ {
			start := strings.Index(rest, tagCallOpen)
			if start < 0 {
				break
			}
			rest = rest[start+len(tagCallOpen):]
			end := strings.Index(rest, tagCallClose)
			payload := rest
			if end >= 0 {
				payload, rest = rest[:end], rest[end+len(tagCallClose):]
			} else {
				rest = ""
			}
			id := ""
			if k < len(results) {
				id = results[k]
			}
			if id == "" {
				id = fmt.Sprintf("inline-%d-%d", i, k)
			}
			m.addInlineCall(payload, id)
		}
	}
}

func (m *message) addInlineCall(payload, defaultID string) {
	at := m.pathString() + "/content"
	if m.valueText {
		at = m.pathString() + "/value"
	}
	v, err := astjson.Decode([]byte(strings.TrimSpace(payload)))
	if err != nil {
		// A body written as a Python dict (str(dict), not json.dumps) is
		// read as the literal it is: the call is named exactly.
		if js, ok := pyLiteralJSON(strings.TrimSpace(payload)); ok {
			v, err = astjson.Decode([]byte(js))
		}
	}
	o, isObj := v.(ast.Object)
	if err != nil || !isObj {
		msg := "payload is not a JSON object"
		if err != nil {
			msg = "payload is not valid JSON: " + err.Error()
		}
		m.addCall(strTerm(defaultID), emptyString, nil, false, strTerm(at), msg)
		return
	}
	id := stringTerm(o, keyID)
	if id.Value.(ast.String) == "" {
		id = strTerm(defaultID)
	}
	args, hasInput := callInput(o)
	m.addCall(id, stringTerm(o, keyName), args, hasInput, strTerm(at), "")
}

func idString(t *ast.Term) (string, bool) {
	if t == nil {
		return "", false
	}
	s, ok := t.Value.(ast.String)
	return string(s), ok
}
