package tokens

import (
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/dlclark/regexp2/v2"
	"github.com/google/go-cmp/cmp"
	"github.com/tiktoken-go/tokenizer"
)

// The split patterns as tiktoken-go compiles them (codec/cl100k_base.go and
// codec/o200k_base.go of github.com/tiktoken-go/tokenizer v0.10.0, the same
// as openai/tiktoken tiktoken_ext/openai_public.py). Compiled with the same
// options they run on the same engine: regexp2 looks the generated matcher
// up by pattern.
var splitPatterns = map[string]string{
	"cl100k_base": `(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+`,
	"o200k_base": `[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?|` +
		`[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?|` +
		`\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+`,
}

var splitters = map[string]splitter{"cl100k_base": nextCl100k, "o200k_base": nextO200k}

var compiled sync.Map // encoding → *regexp2.Regexp

// regexpPieces splits s with the pattern, as tiktoken-go's Count does.
func regexpPieces(t testing.TB, enc, s string) []string {
	t.Helper()
	v, ok := compiled.Load(enc)
	if !ok {
		v, _ = compiled.LoadOrStore(enc, regexp2.MustCompile(splitPatterns[enc], regexp2.None))
	}
	re := v.(*regexp2.Regexp)
	var out []string
	m, err := re.FindStringMatch(s)
	for ; m != nil && err == nil; m, err = re.FindNextMatch(m) {
		out = append(out, m.String())
	}
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// ourPieces splits s as Counter.tokenize does.
func ourPieces(enc, s string) []string {
	if !utf8.ValidString(s) {
		s = string([]rune(s))
	}
	var out []string
	next, t := splitters[enc], classes()
	for i := 0; i < len(s); {
		j := next(t, s, i)
		if j == i {
			_, w := utf8.DecodeRuneInString(s[i:])
			i += w
			continue
		}
		out = append(out, s[i:j])
		i = j
	}
	return out
}

// trickyTexts are the corners of the two patterns: contractions in every
// case (and U+017F, which regexp2 folds to s), letters of each category and
// combining marks, digit runs, punctuation with newlines and slashes, CRLF,
// runs of spaces before a word, a newline or the end (\s+(?!\S)), Unicode
// spaces, invalid UTF-8.
var trickyTexts = []string{
	"", "a", " ", "  ", "\n", "'", "''", "'s", "don't", "DON'T", "we'Re", "they'VE", "I'm", "you'll", "you'Ll", "he'd",
	"it'ſ", "it'ſs", "'llama", "'l", "a'", "rock'n'roll", "o'clock", "'re'", "x'LL'D",
	"Hello world", "hello  world", "hello   \n  world", "trailing   ", "trailing\t", " lead", "\t\tx",
	"line\r\nnext", "\n\n  \n", "\r \r", " \n \n x", "\t\n\n\t\r\n ", "a\r\n\r\n  b", "\r\r\n\n", "x \n", " \n ", "a\u00a0b", "a\u00a0\u00a0b", "a\u2028b", "a\u0085b", "\u3000ideo",
	"12345678", "1,234,567.89", "٣٤٥٦", "x²³⁴", "Ⅻ roman", "a1b22c333d4444",
	"...", " ...", "!!!\n\n", "a!!\r\nb", "path/to/file", " //comment\n//x", "<|endoftext|>", "foo(bar)/\n/baz",
	"café", "cafe\u0301", "e\u0301\u0301", "\u0301", "\u0301abc", " \u0301A", "!\u0301", "!!\u0301", "ABCdef", "ABC", "AbcDef", "aBC",
	"ǅungla", "ǈ", "ʰʰa", "Aʰb", "中文字符", "日本語のテキスト", "한국어 텍스트", "Привет мир", "ΑΒΓαβγ", "مرحبا بالعالم", "שלום",
	"हिन्दी", "ภาษาไทย", "🙂🙂 emoji", "a🙂b", "x\U0001F600'S", "ÀÉÎõü", "İstanbul", "ß SS ẞ", "Kelvin \u212a",
	"{\"city\": \"Paris\", \"n\": 3}", "def f(x):\n    return x  \n", "    indented\n\tcode", "mixed\u200b zero width",
	"\x7f", "a\x7fb", "!\x7f!", " \x7fx", "\x7f\x7f'll", "x \x7f\n",
	"bad \xff byte", "\xe2\x82", "a\xc0\xafb", "\xed\xa0\x80",
	// ASCII words that run into other runes, which the ASCII split hands to
	// the general one: letters and marks of both o200k classes, spaces and
	// digits of other scripts, a contraction's U+017F.
	"HELLOé", "HELLOʰx", "Helloé", "helloʰ", "hello\u0301", "HELLO\u0301", " Abcé", "-abcé", "-ABCʰb", "(ABCÉ",
	"ABC's", "ABC'S x", "abc'ſ", "Abc'll", "word\u00a0", "word\u00a0x", "word٣", "AB\u2028", "x\u0085 y", "\tWord", "a\x7f",
}

// TestSplitTricky: on each tricky text both splitters give the pieces of
// their encoding's regexp, and a few of them the pieces tiktoken is known
// to give.
func TestSplitTricky(t *testing.T) {
	for enc := range splitPatterns {
		for _, s := range trickyTexts {
			if diff := cmp.Diff(regexpPieces(t, enc, s), ourPieces(enc, s)); diff != "" {
				t.Errorf("%s %q: pieces differ from the regexp's (-regexp +ours):\n%s", enc, s, diff)
			}
		}
	}
	known := []struct {
		enc, s string
		want   []string
	}{
		{"cl100k_base", "don't  stop\n\n", []string{"don", "'t", " ", " stop", "\n\n"}},
		{"o200k_base", "don't  stop\n\n", []string{"don't", " ", " stop", "\n\n"}},
		{"cl100k_base", "12345 hello", []string{"123", "45", " hello"}},
		{"o200k_base", "HelloWorld", []string{"Hello", "World"}},
		{"o200k_base", "a/b!\n/\n", []string{"a", "/b", "!\n/\n"}},
		{"cl100k_base", "x   ", []string{"x", "   "}},
	}
	for _, k := range known {
		if diff := cmp.Diff(k.want, ourPieces(k.enc, k.s)); diff != "" {
			t.Errorf("%s %q (-want +got):\n%s", k.enc, k.s, diff)
		}
	}
}

// FuzzSplitMatchesRegexp: on any text both splitters give the regexp's
// pieces, piece by piece, and the counter tiktoken-go's count.
func FuzzSplitMatchesRegexp(f *testing.F) {
	for _, s := range trickyTexts {
		f.Add(s)
	}
	counters := map[string]*Counter{}
	for enc := range splitPatterns {
		c, err := NewCounter(enc)
		if err != nil {
			f.Fatal(err)
		}
		counters[enc] = c
	}
	f.Fuzz(func(t *testing.T, s string) {
		for enc, c := range counters {
			if diff := cmp.Diff(regexpPieces(t, enc, s), ourPieces(enc, s)); diff != "" {
				t.Fatalf("%s %q: pieces differ from the regexp's (-regexp +ours):\n%s", enc, s, diff)
			}
			if got, want := c.tokenize(s), libraryCount(t, enc, s); got != want {
				t.Fatalf("%s %q: %d tokens, tiktoken-go counts %d", enc, s, got, want)
			}
		}
	})
}

func libraryCount(t testing.TB, enc, s string) int {
	t.Helper()
	codec, err := Codec(enc)
	if err != nil {
		t.Fatal(err)
	}
	n, err := codec.Count(s)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// TestMergeLongPieces: pieces past scanMax are merged with the heap, and
// give the counts of tiktoken-go's merge.
func TestMergeLongPieces(t *testing.T) {
	texts := []string{
		strings.Repeat("a", scanMax+1), strings.Repeat("ab", 500), strings.Repeat("héllo", 40),
		strings.Repeat("x", 5000), "supercalifragilisticexpialidocious" + strings.Repeat("ness", 30),
		"QmFzZTY0IGlzIGEgZ3JvdXAgb2YgYmluYXJ5LXRvLXRleHQgZW5jb2Rpbmcgc2NoZW1lcw" + strings.Repeat("ZXM", 50),
	}
	for enc := range splitPatterns {
		c, err := NewCounter(enc)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range texts {
			if got, want := c.tokenize(s), libraryCount(t, enc, s); got != want {
				t.Errorf("%s %.30q (%d bytes): %d tokens, tiktoken-go counts %d", enc, s, len(s), got, want)
			}
			for _, p := range ourPieces(enc, s) {
				if scan, heap := c.ranks.countScan(p), c.ranks.countHeap(p); len(p) > 1 && scan != heap {
					t.Errorf("%s %.30q: the scan merges into %d tokens, the heap into %d", enc, p, scan, heap)
				}
			}
		}
	}
}

// Codec returns tiktoken-go's tokenizer of an encoding, the reference the
// tests hold the counter to.
func Codec(encoding string) (tokenizer.Codec, error) {
	return tokenizer.Get(tokenizer.Encoding(encoding))
}

// TestClassTableIsClassify: the table built from Unicode's ranges gives
// every rune of the plane the classes classify gives it.
func TestClassTableIsClassify(t *testing.T) {
	tab := classes()
	for r := range rune(len(tab)) {
		if got, want := tab[r], classify(r); got != want {
			t.Fatalf("class of %U: %016b, classify gives %016b", r, got, want)
		}
	}
}
