package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chatlint/chatlint/engine/policy/builtins"
	"github.com/google/go-cmp/cmp"
)

// TestSandboxDocIsTheCapabilities: docs/ci.md's list of denied builtins is
// the sandbox's own (builtins.DeniedBuiltins); -update rewrites it. The docs
// once said io.jwt.decode and net.cidr_contains were blocked, and they were
// not.
func TestSandboxDocIsTheCapabilities(t *testing.T) {
	const begin, end = "<!-- sandbox:begin -->\n", "<!-- sandbox:end -->"
	path := filepath.Join(repo, "docs", "ci.md")
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(raw)
	i, j := strings.Index(doc, begin), strings.Index(doc, end)
	if i < 0 || j < i {
		t.Fatalf("docs/ci.md lacks the %q … %q block", begin, end)
	}
	var b strings.Builder
	for _, name := range builtins.DeniedBuiltins() {
		b.WriteString("- `" + name + "`\n")
	}
	want := b.String()
	got := doc[i+len(begin) : j]
	if *update {
		if err := os.WriteFile(path, []byte(doc[:i+len(begin)]+want+doc[j:]), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("docs/ci.md's denied builtins differ from the sandbox (-sandbox +docs); run go test ./cmd/chatlint -update:\n%s", d)
	}
	for _, allowed := range []string{"io.jwt.decode", "net.cidr_contains"} {
		if strings.Contains(want, "`"+allowed+"`") {
			t.Errorf("%s is denied, but docs/ci.md says it is allowed", allowed)
		}
	}
}
