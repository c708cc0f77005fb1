package main

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// hostileSchemaRecord is a chat record calling tool f, declared with schema.
func hostileSchemaRecord(schema, args string) string {
	a, _ := json.Marshal(args)
	return `{"messages":[{"role":"user","content":"q"},{"role":"assistant","tool_calls":[{"id":"c1","type":"function","function":{"name":"f","arguments":` +
		string(a) + `}}]},{"role":"tool","tool_call_id":"c1","content":"r"},{"role":"assistant","content":"a"}],` +
		`"tools":[{"type":"function","function":{"name":"f","description":"d","parameters":` + schema + `}}]}`
}

// TestCheckHostileSchemas: tool schemas built to hang the validator (26
// nested anyOf of two $refs, properties nested 1,600 deep, 2^17 branches)
// each make their record a policy-error at once, under both profiles, and
// the run goes on to check the next record.
func TestCheckHostileSchemas(t *testing.T) {
	branches := func(n int) string {
		var b strings.Builder
		b.WriteString(`{"type":"object","properties":{"x":{"$ref":"#/$defs/d0"}},"$defs":{`)
		for i := range n {
			fmt.Fprintf(&b, `"d%d":{"anyOf":[{"$ref":"#/$defs/d%d"},{"$ref":"#/$defs/d%d"}]},`, i, i+1, i+1)
		}
		fmt.Fprintf(&b, `"d%d":{"type":"string"}}}`, n)
		return b.String()
	}
	deep := strings.Repeat(`{"type":"object","properties":{"a":`, 1600) + `{}` + strings.Repeat(`}}`, 1600)
	data := strings.Join([]string{
		hostileSchemaRecord(branches(26), `{"x":1}`),
		hostileSchemaRecord(deep, `{"a":1}`),
		hostileSchemaRecord(branches(17), `{"x":1}`),
		hostileSchemaRecord(`{"type":"object","properties":{"x":{"type":"string"}}}`, `{"x":1}`),
	}, "\n") + "\n"
	f := writeFile(t, t.TempDir(), "hostile.jsonl", data)
	for _, profile := range []string{"default", "openai"} {
		start := time.Now()
		out, errOut, code := chatlint(t, "", "check", "--profile", profile, f)
		if took := time.Since(start); took > 20*time.Second {
			t.Errorf("%s: check took %v", profile, took)
		}
		name := filepath.Base(f)
		// Under a provider profile, argument schemas are chatlint's own
		// check: a warning.
		sev := "error"
		if profile == "openai" {
			sev = "warning"
		}
		for _, want := range []string{
			name + ":1: error policy-error: JSON Schema not applied: validating the arguments would take more than",
			name + ":2: error policy-error: JSON Schema not applied: the schema nests deeper than 128 levels",
			name + ":3: error policy-error: JSON Schema not applied: validating the arguments would take more than",
			name + ":4: " + sev + " tool-arguments-schema",
		} {
			if !strings.Contains(out, want) {
				t.Errorf("%s: output lacks %q:\n%s", profile, want, out)
			}
		}
		if code != 2 {
			t.Errorf("%s: exit %d, want 2 (records not checked); stderr %s", profile, code, errOut)
		}
	}
}
