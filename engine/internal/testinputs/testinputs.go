// Package testinputs gathers what the equivalence tests compare old and new
// behaviour over: every record file of the repository's fixtures (and of the
// shared sample data beside the repository, when it is there), and the pack
// sets whose field sets prune documents.
package testinputs

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chatlint/chatlint/engine/builtin"
	"github.com/chatlint/chatlint/engine/policy"
)

// Repo is the repository's root, from a test's package directory two
// levels down (engine/<package>).
func Repo(t testing.TB) string {
	repo, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	return repo
}

// Files are every fixture record file (.jsonl and .json under policies/ and
// fixtures/, but a rule's expected.json) and, when shared is set, every file
// of ../shared/data when it is there (a user's clone has none).
func Files(t testing.TB, shared bool) []string {
	repo := Repo(t)
	roots := []string{filepath.Join(repo, "policies"), filepath.Join(repo, "fixtures")}
	if dir := filepath.Join(repo, "../shared/data"); shared {
		if _, err := os.Stat(dir); err == nil {
			roots = append(roots, dir)
		}
	}
	var out []string
	for _, root := range roots {
		err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			if (strings.HasSuffix(p, ".jsonl") || strings.HasSuffix(p, ".json")) && filepath.Base(p) != "expected.json" {
				out = append(out, p)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if len(out) < 100 {
		t.Fatalf("found %d input files", len(out))
	}
	return out
}

// PackSets are the pack sets whose field sets the pruning tests build
// documents under: the built-in check packs together, each built-in pack
// alone, each team pack under fixtures/packs, and the bench packs.
func PackSets(t testing.TB) map[string][]*policy.Pack {
	all, err := builtin.All()
	if err != nil {
		t.Fatal(err)
	}
	checks, err := builtin.Packs()
	if err != nil {
		t.Fatal(err)
	}
	sets := map[string][]*policy.Pack{"built-in check packs": checks}
	for _, p := range all {
		sets["builtin:"+p.Name] = []*policy.Pack{p}
	}
	repo := Repo(t)
	dirs, _ := filepath.Glob(filepath.Join(repo, "fixtures/packs/*"))
	dirs = append(dirs, filepath.Join(repo, "scripts/bench-pack"), filepath.Join(repo, "scripts/bench-floor"))
	for _, d := range dirs {
		p, err := policy.LoadFS(os.DirFS(d), ".", d)
		if err != nil {
			t.Fatal(err)
		}
		sets[filepath.Base(d)] = []*policy.Pack{p}
	}
	return sets
}
