package lint

import (
	"strings"
	"testing"

	"github.com/chatlint/chatlint/engine/document"
)

// TestBuildRecovered: a builder that panics gives an error naming the
// panic, not a dead process; one that does not gives its document.
func TestBuildRecovered(t *testing.T) {
	var nilObj map[string]int
	d, err := buildRecovered(func() *document.Document {
		nilObj["x"] = 1 // a nil map write: a runtime panic, as a nil dereference is
		return nil
	})
	if d != nil || err == nil || !strings.Contains(err.Error(), "internal error building the document: assignment to entry in nil map") {
		t.Errorf("a panicking build: %v, %v", d, err)
	}
	want := &document.Document{}
	if d, err := buildRecovered(func() *document.Document { return want }); d != want || err != nil {
		t.Errorf("a build that does not panic: %v, %v", d, err)
	}
}
