package policy

import (
	"io/fs"
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"gopkg.in/yaml.v3"

	"github.com/chatlint/chatlint/rules"
)

// The expressions the scanners of fielduse_raw_scan.go replace.
var (
	rawWordRE  = regexp.MustCompile(`(^|[^A-Za-z0-9_])raw([^A-Za-z0-9_]|$)`)
	pathTokRE  = regexp.MustCompile(`\$?[A-Za-z0-9_]+(?:\[\*\])?(?:\.\$?[A-Za-z0-9_]+(?:\[\*\])?)*`)
	typeHeadRE = regexp.MustCompile(`\{\{\s*type\s+$`)
	typeTailRE = regexp.MustCompile(`^\s*\}\}`)
)

// TestRawScannersMatchRegexps: the hand scanners find what the expressions
// found, on hand-picked texts, on every key and scalar of the built-in YAML
// rules, and on random texts over the bytes that matter to them.
func TestRawScannersMatchRegexps(t *testing.T) {
	texts := []string{
		"", "raw", "raw.tools", "xraw", "rawx", "_raw", "raw_", "a raw b", "é raw", "rawé", "\xffraw\xff",
		"$", "$$a", "$.a", "a.$", "a.$b", "a..b", "a.", ".a", "a[*]", "a[*][*].b", "a[*.b", "a[]", "[*]",
		"messages[*].raw.tool_calls[*].function", "$message.raw.x", "$answered.first", "{{json $previous}}",
		"{{type raw.tools}}", "{{  type\traw.x  }}", "{{type  raw.x}", "{type raw.x}}", "{{ typeraw.x}}",
		"{{ xtype raw.x }}", "tools is {{type raw.tools}} and {{q:60 raw.y}}", "a$b.c", "é.a", "a.é",
	}
	var walk func(n *yaml.Node)
	walk = func(n *yaml.Node) {
		if n.Kind == yaml.ScalarNode {
			texts = append(texts, n.Value)
		}
		for _, c := range n.Content {
			walk(c)
		}
	}
	err := fs.WalkDir(rules.FS, ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(name, ".yaml") {
			return err
		}
		src, err := fs.ReadFile(rules.FS, name)
		if err != nil {
			return err
		}
		texts = append(texts, string(src))
		var root yaml.Node
		if yaml.Unmarshal(src, &root) == nil {
			walk(&root)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(1, 2))
	const alphabet = "raw$.[*]{} \t\ntype_x9é"
	for range 20000 {
		b := make([]byte, r.IntN(16))
		for i := range b {
			b[i] = alphabet[r.IntN(len(alphabet))]
		}
		texts = append(texts, string(b))
	}
	for _, s := range texts {
		if got, want := hasRawWord(s), rawWordRE.MatchString(s); got != want {
			t.Errorf("hasRawWord(%q) = %v, the expression %v", s, got, want)
		}
		if got, want := hasRawWord([]byte(s)), rawWordRE.Match([]byte(s)); got != want {
			t.Errorf("hasRawWord([]byte(%q)) = %v, the expression %v", s, got, want)
		}
		var got [][]int
		for start, end := nextPathTok(s, 0); start >= 0; start, end = nextPathTok(s, end) {
			got = append(got, []int{start, end})
		}
		if diff := cmp.Diff(pathTokRE.FindAllStringIndex(s, -1), got); diff != "" {
			t.Errorf("paths of %q (-expression +scanner):\n%s", s, diff)
		}
		for i := 0; i <= len(s); i++ {
			if got, want := endsTypeHead(s[:i]), typeHeadRE.MatchString(s[:i]); got != want {
				t.Errorf("endsTypeHead(%q) = %v, the expression %v", s[:i], got, want)
			}
			if got, want := startsTypeTail(s[i:]), typeTailRE.MatchString(s[i:]); got != want {
				t.Errorf("startsTypeTail(%q) = %v, the expression %v", s[i:], got, want)
			}
		}
	}
}
