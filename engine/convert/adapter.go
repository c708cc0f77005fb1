package convert

import (
	"bytes"
	"strings"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/chatlint/chatlint/engine/astjson"
	"github.com/chatlint/chatlint/engine/document"
	"github.com/chatlint/chatlint/engine/jsonv"
)

// adapterLine is one log line as check's proxy-log adapter reads it. convert
// decodes lines its own way (numbers and key order as the reference writes
// them back), and asks the adapter what the line holds only where the
// reference's model has no answer: the file's format, the request of a
// gateway log (under request.body) and the HTTP status. The line is decoded
// for the adapter at most once, and only when one of those is asked.
type adapterLine struct {
	data    []byte
	decoded bool
	obj     ast.Object
}

func (a *adapterLine) object() ast.Object {
	if !a.decoded {
		a.decoded = true
		if v, err := astjson.Decode(a.data); err == nil {
			a.obj, _ = v.(ast.Object)
		}
	}
	return a.obj
}

// status is the adapter's HTTP status of the line (0 when none). Only a line
// that names a status key can have one, so the others are not decoded again.
func (a *adapterLine) status() int {
	if !bytes.Contains(a.data, []byte(`"status`)) {
		return 0
	}
	if o := a.object(); o != nil {
		return document.ProxyLogPartsOf(o).Status
	}
	return 0
}

// gatewayView returns the line rewritten into the reference's layout when
// the adapter reads its request under request.body (gateways that log the
// HTTP exchange): request is the body, response the response body holding
// the choices (none when the request failed and the body is an error), and
// a missing session_id is the file's own (one file is one session, as
// check reads it). nil when the adapter reads the line another way.
func (a *adapterLine) gatewayView(v jsonv.Value) *jsonv.Object {
	o, ok := v.(*jsonv.Object)
	if !ok || !bytes.Contains(a.data, []byte(`"body"`)) {
		return nil
	}
	ao := a.object()
	if ao == nil {
		return nil
	}
	p := document.ProxyLogPartsOf(ao)
	if p.Request != "/request/body" {
		return nil
	}
	view := &jsonv.Object{}
	for _, m := range o.Members {
		if m.Key != "request" && m.Key != "response" {
			view.Members = append(view.Members, m)
		}
	}
	view.Set("request", pointer(o, p.Request))
	if p.Response != "" {
		view.Set("response", pointer(o, p.Response))
	}
	if _, ok := view.Get("session_id"); !ok {
		view.Set("session_id", "")
	}
	return view
}

// pointer resolves a JSON Pointer of object members only ("/a/b").
func pointer(v jsonv.Value, ptr string) jsonv.Value {
	for _, k := range strings.Split(strings.TrimPrefix(ptr, "/"), "/") {
		o, ok := v.(*jsonv.Object)
		if !ok {
			return nil
		}
		v = get(o, k)
	}
	return v
}
