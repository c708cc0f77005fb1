package document

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestProxyLogPartsOf(t *testing.T) {
	tests := []struct {
		name, line string
		want       ProxyLogParts
	}{
		{"reference layout", `{"request": {"messages": []}, "response": {"id": "r", "choices": [{"message": {"role": "assistant"}}]}}`,
			ProxyLogParts{Request: "/request", Response: "/response"}},
		{"gateway layout, failed: the status wins over success", `{"request": {"body": {"messages": []}}, "response": {"status": 401, "body": {"type": "error"}}, "success": true}`,
			ProxyLogParts{Request: "/request/body", Status: 401}},
		{"gateway layout, answered", `{"request": {"body": {"messages": []}}, "response": {"status_code": 200, "body": {"choices": [{"message": {}}]}}}`,
			ProxyLogParts{Request: "/request/body", Response: "/response/body", Status: 200}},
		{"statusCode", `{"request": {"messages": []}, "response": {"statusCode": 503}}`, ProxyLogParts{Request: "/request", Status: 503}},
		{"no messages; a status that is no HTTP status", `{"request": {"body": null}, "response": {"status": "401", "status_code": 42}}`, ProxyLogParts{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, ProxyLogPartsOf(obj(t, tt.line))); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}
