package builtin

import (
	"strings"
	"testing"

	"github.com/chatlint/chatlint/engine/document"
	"github.com/chatlint/chatlint/engine/policy"
)

// Every input format has a default cleanup pack, and it names a built-in
// pack of kind cleanup: a new format without one would make fix fail on it.
func TestDefaultCleanup(t *testing.T) {
	packs, err := Cleanup()
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[string]string{}
	for _, p := range packs {
		kinds[p.Name] = p.Kind
	}
	for _, f := range document.Formats {
		ref := DefaultCleanup(f)
		name, ok := strings.CutPrefix(ref, "builtin:")
		if !ok || kinds[name] != policy.KindCleanup {
			t.Errorf("format %s: default cleanup pack %q is not a built-in cleanup pack (have %v)", f, ref, kinds)
		}
	}
	if got := DefaultCleanup("csv"); got != "" {
		t.Errorf("unknown format: %q, want none", got)
	}
}
