package policy

import (
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// The YAML field analysis as it was written first, with regular expressions:
// the reference fieldSet.yaml's one-pass scanners must agree with on every
// file.
var (
	refWord     = regexp.MustCompile(`[A-Za-z_][A-Za-z0-9_]*`)
	refGiven    = regexp.MustCompile(`(?m)^\s*-?\s*given\s*:\s*["']?([^"'#\s]*)`)
	refAnyGiven = regexp.MustCompile(`given\s*:`)
	refSelf     = regexp.MustCompile(`\$([^A-Za-z0-9_]|$)`)
	refCtx      = regexp.MustCompile(`\$(message|tool|entry|document)([^.A-Za-z0-9_]|$)`)
)

func (s *fieldSet) yamlReference(src []byte) {
	givens := refGiven.FindAllSubmatch(src, -1)
	rest := refGiven.ReplaceAll(src, nil)
	for _, w := range refWord.FindAll(src, -1) {
		s.names[string(w)] |= named
		s.names[string(w)+"_path"] |= named
	}
	for _, n := range yamlImplicit {
		s.names[n] |= named
	}
	t := &s.tree
	if refSelf.Match(rest) {
		for _, c := range refChunks(src) {
			cg := refGiven.FindAllSubmatch(c, -1)
			if !refSelf.Match(refGiven.ReplaceAll(c, nil)) {
				continue
			}
			any := len(refAnyGiven.FindAllIndex(c, -1))
			if any != len(cg) {
				t.add(nil, true)
			}
			if len(cg) == 0 && any == 0 {
				cg = givens
			}
			for _, g := range cg {
				t.add(givenPath(string(g[1])), true)
			}
		}
	}
	for _, m := range refCtx.FindAllSubmatch(rest, -1) {
		switch string(m[1]) {
		case "message":
			t.add([]string{"messages", "*"}, true)
		case "tool":
			t.add([]string{"tools", "*"}, true)
		case "entry":
			t.add([]string{"entries", "*"}, true)
		default:
			t.add(nil, true)
		}
	}
}

// refItem is a list item's line; refChunks splits src before each one at
// the least indentation, as yamlRuleChunks does.
var refItem = regexp.MustCompile(`(?m)^( *)-(?:[\t\n\f\r ]|$)`)

func refChunks(src []byte) [][]byte {
	ms := refItem.FindAllSubmatchIndex(src, -1)
	least := -1
	for _, m := range ms {
		if n := m[3] - m[2]; least < 0 || n < least {
			least = n
		}
	}
	var chunks [][]byte
	from := 0
	for _, m := range ms {
		if m[3]-m[2] == least && m[0] > from {
			chunks = append(chunks, src[from:m[0]])
			from = m[0]
		}
	}
	return append(chunks, src[from:])
}

// fieldSetCmp compares field sets by the names they hold (pathed, a note
// of the scanner's, is not the reference's).
var fieldSetCmp = cmp.Options{
	cmp.AllowUnexported(fieldSet{}, readTree{}),
	cmp.Transformer("names", func(n nameSet) []string { return slices.Sorted(maps.Keys(n)) }),
}

// yamlAgrees fails t when the scanners and the reference read src apart,
// alone and after another file (the names and the tree accumulate).
func yamlAgrees(t *testing.T, name string, src []byte) {
	t.Helper()
	got, want := &fieldSet{names: nameSet{}}, &fieldSet{names: nameSet{}}
	got.yaml(src)
	want.yamlReference(src)
	if diff := cmp.Diff(want, got, fieldSetCmp); diff != "" {
		t.Errorf("%s: field reads (-reference +scanners):\n%s", name, diff)
	}
	gotGivens, gotRest := yamlGivens(src)
	var wantGivens []string
	for _, g := range refGiven.FindAllSubmatch(src, -1) {
		wantGivens = append(wantGivens, string(g[1]))
	}
	if diff := cmp.Diff(wantGivens, gotGivens); diff != "" {
		t.Errorf("%s: givens (-reference +scanner):\n%s", name, diff)
	}
	if want := refGiven.ReplaceAll(src, nil); string(want) != string(gotRest) {
		t.Errorf("%s: the rest without the givens: got %q, want %q", name, gotRest, want)
	}
}

// TestYAMLFieldReadsMatchReference compares the scanners with the regular
// expressions on every YAML file of the repository: the built-in packs
// (rules/, policies/), the team and fixture packs, the testdata packs.
func TestYAMLFieldReadsMatchReference(t *testing.T) {
	n := 0
	err := filepath.WalkDir("../..", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == ".git" {
			return filepath.SkipDir
		}
		if d.IsDir() || !(strings.HasSuffix(p, ".yaml") || strings.HasSuffix(p, ".yml")) {
			return nil
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		yamlAgrees(t, p, src)
		n++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n < 30 {
		t.Fatalf("compared %d YAML files", n)
	}
	// The accumulated set of every built-in YAML file, as Compile builds it.
	got, want := &fieldSet{names: nameSet{}}, &fieldSet{names: nameSet{}}
	for _, dir := range []string{"../../rules", "../../policies"} {
		_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasSuffix(p, ".yaml") {
				src, _ := os.ReadFile(p)
				got.yaml(src)
				want.yamlReference(src)
			}
			return err
		})
	}
	if diff := cmp.Diff(want, got, fieldSetCmp); diff != "" {
		t.Errorf("built-in packs together: field reads (-reference +scanners):\n%s", diff)
	}
}

// yamlEdgeCases are the corners of the patterns: givens across blank lines,
// quoted, empty, commented, in flow style, at the end of the file; "$"
// before every kind of byte; contexts that abut, nest or end the file.
var yamlEdgeCases = []string{
	"",
	"given",
	"given:",
	"given:\n",
	"given:\n#c\ngiven: x",
	"  \n\n  - given: 'messages[*]'\n  x: $",
	"- given :\n   messages[*].tool_calls[*]\n  assert: {$: {}}",
	"rules:\n  - {given: messages[*], assert: {$: x}}\n",
	"a: given: tools[*] $",
	"given: \"tools[*]\"#c\n$",
	"given:tools[*]given: x\n given: y\n$",
	"-given: a\n- -given: b\n$.",
	"\t\f\r\ngiven\t:\r\n\tentries[*] $ ",
	"$", "$$", "$a", "$_", "$9", "$.", "$é", "$\xff", "\xe2$",
	"$message", "$message.", "$messages", "$message$tool", "$tool$message ", "$entry\xff$document",
	"$document$", "$$document", "x$tool_", "$tool\xe2$entry", "given: $message\n$tool",
	"word_9 _x 9y é\xffa givens given_path",
}

func TestYAMLFieldReadsEdgeCases(t *testing.T) {
	for _, c := range yamlEdgeCases {
		yamlAgrees(t, c, []byte(c))
	}
}

func FuzzYAMLFieldReads(f *testing.F) {
	for _, c := range yamlEdgeCases {
		f.Add([]byte(c))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		yamlAgrees(t, "fuzz", src)
	})
}
