package convert

import (
	"strings"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/chatlint/chatlint/engine/astjson"
	"github.com/chatlint/chatlint/engine/document"
	"github.com/chatlint/chatlint/engine/jsonv"
)

// roleTrace is the role trace the report prints for a request's messages,
// as the proxy-log adapter tokenizes them (the fuzz test feeds it).
func roleTrace(msgs []*jsonv.Object) string {
	list := make([]jsonv.Value, len(msgs))
	for i, m := range msgs {
		list[i] = m
	}
	line := &jsonv.Object{Members: []jsonv.Member{{Key: "request", Value: &jsonv.Object{Members: []jsonv.Member{{Key: "messages", Value: list}}}}}}
	v, err := astjson.Decode(ruleJSON(line))
	if err != nil {
		return ""
	}
	b := document.NewBuilder(document.ProxyLog, "f", document.Options{})
	b.Add(1, v.(ast.Object))
	return strings.Join(b.Finish().RoleTraces()[0], " ")
}
