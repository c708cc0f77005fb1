package yamlrule

import (
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"
)

// TestHeadLinesSameMatches: a pattern headLines takes answers every text as
// the pattern itself does (texts built from the pieces the patterns look
// for, newlines among them, and random bytes), and the patterns it must not
// take (the rest could cross a newline or looks past the text's end) it
// leaves alone.
func TestHeadLinesSameMatches(t *testing.T) {
	taken := []string{
		// blocks.yaml's Codex exit-code pattern
		`\A(?:[^\n]*\n){0,3}[^\n]*?(?i:exit code:?|exited with code) *-?[1-9]`,
		`\A(?:[^\n]*\n){0,0}[^\n]*?error`,
		`\A(?:[^\n]*\n){0,2}[^\n]*(?:ab|c[0-9]+)`,
		`^(?:[^\n]*\n){0,1}[^\n]*?x.y`,
		`\A(?:[^\n]*\n){0,2}[^\n]*?(?i:kit) *[0-9]`, // (?i)k matches the Kelvin sign: no byte search
		`\A(?:[^\n]*\n){0,2}[^\n]*?(?i:EXit)(?:ed)?`,
	}
	left := []string{
		`\A(?:[^\n]*\n){0,3}[^\n]*?exit(?s:.)code`, // the rest may cross a newline
		`\A(?:[^\n]*\n){0,3}[^\n]*?exit$`,          // the rest asserts the text's end
		`\A(?:[^\n]*\n){0,3}[^\n]*?\bexit`,         // a word boundary at the cut
		`\A(?:[^\n]*\n){1,3}[^\n]*?exit`,           // a line at least
		`\A(?:[^\n]*\n){0,}[^\n]*?exit`,            // no bound
		`(?:[^\n]*\n){0,3}[^\n]*?exit`,             // not anchored
		`\A(?:.*\n){0,3}[^\n]*?exit`,               // . is [^\n] too, but spelled otherwise
		`\A(?:[^\n]*\n){0,3}exit`,                  // no [^\n]*? before the rest
	}
	for _, p := range left {
		if headLines(p) != nil {
			t.Errorf("headLines(%q) took a pattern it must leave alone", p)
		}
	}
	if h := headLines(taken[0]); h.lit != "exit" || !h.fold {
		t.Errorf("the exit-code pattern's literal: %q (fold %v), want \"exit\" in any case", h.lit, h.fold)
	}
	if h := headLines(taken[4]); h.lit != "" {
		t.Errorf("(?i:kit) searched for byte by byte as %q", h.lit)
	}
	pieces := []string{"\n", "\n", "\n", "Exit code: ", "exit code", "EXITED WITH CODE ", "Process exited with code ", "0", "1", "-3", " ", "  ",
		"error", "ab", "c7", "x", "y", "xay", "x\ny", "Wall time: 0.4 seconds", "Output:", "\r", "é", "K", "\u212a", "kit", "KIT", "\u212aIT", "eXIted", "exi"}
	rng := rand.New(rand.NewPCG(1, 2))
	for _, p := range taken {
		h := headLines(p)
		if h == nil {
			t.Fatalf("headLines(%q) = nil, want the pattern taken", p)
		}
		re := regexp.MustCompile(p)
		for i := range 20000 {
			var b strings.Builder
			for range rng.IntN(12) {
				if rng.IntN(8) == 0 {
					b.WriteByte(byte(rng.IntN(256)))
				} else {
					b.WriteString(pieces[rng.IntN(len(pieces))])
				}
			}
			s := b.String()
			if got, want := h.matchString(s), re.MatchString(s); got != want {
				t.Fatalf("%q on text %d %q: %v, the pattern says %v", p, i, s, got, want)
			}
		}
	}
}
