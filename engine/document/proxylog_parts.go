package document

import (
	"encoding/json"

	"github.com/open-policy-agent/opa/v1/ast"
)

// ProxyLogParts says where a proxy-log line keeps what the proxy-log adapter
// reads, so that a command that decodes the line its own way (convert,
// which writes records as the reference converter does) takes the same
// parts as check: one reading of a proxy-log line for every command.
type ProxyLogParts struct {
	// Request is the JSON Pointer of the request object holding the
	// messages: "/request", or "/request/body" for gateways that log the
	// HTTP body; "" when the line has no request messages.
	Request string
	// Response is the pointer of the response object holding the choices
	// ("/response" or "/response/body"); "" when there is none, as for a
	// failed request whose body is an error.
	Response string
	// Status is the HTTP status of the response, 0 when the line has none.
	Status int
}

// ProxyLogPartsOf locates the parts of one proxy-log line.
func ProxyLogPartsOf(rec ast.Object) ProxyLogParts {
	var p ProxyLogParts
	if req, ptr := request(rec); get(req, KeyMessages) != nil {
		p.Request = ptr
	}
	if _, ptr := responseMessage(rec); ptr != "" {
		p.Response = ptr[:len(ptr)-len("/choices/0/message")]
	}
	p.Status = httpStatus(rec)
	return p
}

var statusKeys = []*ast.Term{ast.StringTerm("status"), ast.StringTerm("status_code"), ast.StringTerm("statusCode")}

// httpStatus is the response's HTTP status: response.status, status_code or
// statusCode when it is an integer from 100 to 599, else 0. Logs also carry
// fields such as "success" that a gateway sets whatever the provider
// answered; the status is what the provider said.
func httpStatus(rec ast.Object) int {
	resp := objectField(rec, keyResponse)
	for _, k := range statusKeys {
		t := get(resp, k)
		if t == nil {
			continue
		}
		n, ok := t.Value.(ast.Number)
		if !ok {
			continue
		}
		i, err := json.Number(n).Int64()
		if err == nil && i >= 100 && i <= 599 {
			return int(i)
		}
	}
	return 0
}
