package builtins

import (
	"testing"

	"github.com/open-policy-agent/opa/v1/rego"
)

func BenchmarkSchemaErrors(b *testing.B) {
	schema := mustValue(&testing.T{}, `{"type": "object", "properties": {"query": {"type": "string", "description": "The search query."}, "max_results": {"type": "integer", "description": "How many results to return (1-20)."}}, "required": ["query"]}`)
	args := mustValue(&testing.T{}, `{"query": "weather in paris", "max_results": 5}`)
	b.Run("errors", func(b *testing.B) {
		for b.Loop() {
			schemaErrors(rego.BuiltinContext{}, schema, args)
		}
	})
	b.Run("hash", func(b *testing.B) {
		for b.Loop() {
			schema.Value.Hash()
		}
	})
	b.Run("get", func(b *testing.B) {
		for b.Loop() {
			Schemas.Get(schema.Value)
		}
	})
}
