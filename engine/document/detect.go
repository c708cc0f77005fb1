package document

import (
	"slices"
	"strings"

	"github.com/open-policy-agent/opa/v1/ast"
)

// Detect names the format of a file from its first record that is a JSON
// object. ok is false when the record matches no format.
func Detect(rec ast.Object) (f Format, ok bool) {
	switch {
	case stringField(rec, keyType) == "session":
		return AgentSession, true
	case requestObject(rec) != nil:
		return ProxyLog, true
	case get(rec, keyConvID) != nil || get(rec, keyUserID) != nil:
		return Contract, true
	case get(rec, KeyMessages) != nil:
		return Chat, true
	}
	return "", false
}

// requestObject returns a proxy-log line's request: request.messages, or
// request.body.messages for gateways that log the HTTP body.
func requestObject(rec ast.Object) ast.Object {
	req := objectField(rec, keyRequest)
	if req == nil {
		return nil
	}
	if get(req, KeyMessages) != nil {
		return req
	}
	if body := objectField(req, keyBody); body != nil && get(body, KeyMessages) != nil {
		return body
	}
	return nil
}

// Keys lists a record's top-level keys, sorted, for messages about records
// that match no format.
func Keys(rec ast.Object) string {
	var keys []string
	rec.Foreach(func(k, _ *ast.Term) {
		if s, ok := k.Value.(ast.String); ok {
			keys = append(keys, string(s))
		}
	})
	slices.Sort(keys)
	if len(keys) > 8 {
		keys = append(keys[:8], "…")
	}
	return strings.Join(keys, ", ")
}
