package tokens

import (
	"strings"
	"testing"
	"time"

	"github.com/open-policy-agent/opa/v1/ast"
)

// TestLongTextBounded: one 10 MB single-word message took 12-21 s to
// count, outside any time limit. Past ExactBytes of an example's text the
// count is estimated at the measured rate, so it takes a bounded time and
// stays close to the exact count; shorter texts are counted exactly.
func TestLongTextBounded(t *testing.T) {
	c, err := NewCounter("o200k_base")
	if err != nil {
		t.Fatal(err)
	}
	word := strings.Repeat("a", 10<<20)
	doc := ast.NewObject(ast.Item(ast.StringTerm("messages"), ast.ArrayTerm(ast.ObjectTerm(
		ast.Item(ast.StringTerm("role"), ast.StringTerm("user")),
		ast.Item(ast.StringTerm("text"), ast.StringTerm(word))))))
	start := time.Now()
	n := c.Document(doc)
	if took := time.Since(start); took > 4*time.Second {
		t.Errorf("a 10 MB single-word message took %v to count", took)
	}
	// "aaaaaaaa" is one token of o200k_base: 8 bytes a token.
	if want := 10 << 20 / 8; n < want || n > want+want/100 {
		t.Errorf("10 MB of one letter: %d tokens, want about %d", n, want)
	}

	text := strings.Repeat("The quick brown fox jumps over the lazy dog. ", 2000) // 90 KB
	if got, want := c.Text(text), c.exact(text); got != want {
		t.Errorf("a text under ExactBytes: %d tokens, want the exact %d", got, want)
	}
	long := strings.Repeat(text, 8) // 720 KB: 256 KiB counted, the rest at their rate
	if got, want := c.Text(long), c.exact(long); got < want-want/100 || got > want+want/100 {
		t.Errorf("a text past ExactBytes: %d tokens, want within 1%% of the exact %d", got, want)
	}
	if got := c.Text(strings.Repeat("é", ExactBytes)); got <= 0 { // a cut inside a rune is moved to its start
		t.Errorf("Text cut a rune: %d", got)
	}
}
