package tokens

import (
	"strings"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"
)

// TestSharedToolsCountedOnce: examples that share one tools list (as the
// decoder gives the records that repeat it) count as examples with lists of
// their own do, whether the list's count is kept or not, and whether the
// example's budget leaves room for the list's texts or not; a list met
// twice is kept, so that a third example reads no member of it.
func TestSharedToolsCountedOnce(t *testing.T) {
	tools := ast.NewArray(ast.ObjectTerm(
		ast.Item(ast.StringTerm("name"), ast.StringTerm("get_weather")),
		ast.Item(ast.StringTerm("function"), ast.ObjectTerm(
			ast.Item(ast.StringTerm("description"), ast.StringTerm("Get the weather for a city.")))),
		ast.Item(ast.StringTerm("parameters"), ast.ObjectTerm(
			ast.Item(ast.StringTerm("properties"), ast.ObjectTerm(
				ast.Item(ast.StringTerm("city"), ast.ObjectTerm(
					ast.Item(ast.StringTerm("type"), ast.StringTerm("string")),
					ast.Item(ast.StringTerm("description"), ast.StringTerm("The city.")))),
				ast.Item(ast.StringTerm("unit"), ast.ObjectTerm(
					ast.Item(ast.StringTerm("type"), ast.StringTerm("string")),
					ast.Item(ast.StringTerm("enum"), ast.ArrayTerm(ast.StringTerm("celsius"), ast.StringTerm("fahrenheit")))))))))))
	example := func(text string, ts *ast.Array) ast.Object {
		return ast.NewObject(
			ast.Item(ast.StringTerm("messages"), ast.ArrayTerm(ast.ObjectTerm(
				ast.Item(ast.StringTerm("role"), ast.StringTerm("user")),
				ast.Item(ast.StringTerm("text"), ast.StringTerm(text))))),
			ast.Item(ast.StringTerm("tools"), ast.NewTerm(ts)))
	}
	copyOf := func() *ast.Array { return ast.NewArray(tools.Elem(0).Copy()) }
	texts := []string{
		"What is the weather in Paris?",
		strings.Repeat("word ", ExactBytes/5-2), // leaves the list a few bytes: it is estimated
		strings.Repeat("x", ExactBytes),         // leaves it nothing
		"And in Lyon?",
	}
	shared, err := NewCounter("o200k_base")
	if err != nil {
		t.Fatal(err)
	}
	for round := range 3 {
		for _, text := range texts {
			fresh, err := NewCounter("o200k_base")
			if err != nil {
				t.Fatal(err)
			}
			want := fresh.Document(example(text, copyOf()))
			if got := shared.Document(example(text, tools)); got != want {
				t.Errorf("round %d, %.20q: %d tokens with the list shared, %d with a list of its own", round, text, got, want)
			}
		}
	}
	if shared.tools.get(tools) == nil {
		t.Error("a list met in every example was not kept")
	}
}
