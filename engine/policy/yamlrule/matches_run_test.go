package yamlrule

import (
	"math/rand/v2"
	"regexp"
	"testing"
)

var runPatterns = []string{
	`^[a-zA-Z0-9_-]{1,64}$`,
	`^([a-zA-Z0-9_-]{1,64})?$`,
	`\A[a-z]+\z`,
	`^[0-9]*$`,
	`^x{2,}$`,
	`^(?:[A-F0-9]{0,3})$`,
	`^(?i:[a-c]{2})$`,
}

// TestMatchRunAgreesWithRegexp: each run pattern is recognized, and says
// of strings near its bounds and classes what Go's regexp says.
func TestMatchRunAgreesWithRegexp(t *testing.T) {
	for _, p := range []string{`^[a-z]+`, `[a-z]+$`, `^[a-z]+|x$`, `^[a-zé]+$`, `^\S+$`, `^a.b$`, `^[a-z]+[0-9]$`} {
		if _, ok := matchRun(p); ok {
			t.Errorf("matchRun(%q) took a pattern that is not one run of an ASCII class", p)
		}
	}
	alphabet := []string{"a", "b", "c", "z", "A", "F", "Z", "0", "9", "_", "-", "x", " ", "\n", "é", "\xff", ".", "$"}
	r := rand.New(rand.NewPCG(3, 36))
	for _, p := range runPatterns {
		run, ok := matchRun(p)
		if !ok {
			t.Fatalf("matchRun(%q) did not take a run pattern", p)
		}
		re := regexp.MustCompile(p)
		for range 5000 {
			n := r.IntN(70)
			if r.IntN(4) == 0 {
				n = r.IntN(4)
			}
			s := ""
			for range n {
				s += alphabet[r.IntN(len(alphabet))]
			}
			if got, want := run(s), re.MatchString(s); got != want {
				t.Fatalf("%q on %q: %v, regexp says %v", p, s, got, want)
			}
		}
	}
}

// FuzzMatchRun: a run pattern says what Go's regexp says of any string.
func FuzzMatchRun(f *testing.F) {
	f.Add(0, "search_web")
	f.Add(1, "")
	f.Add(2, "a\n")
	f.Fuzz(func(t *testing.T, i int, s string) {
		p := runPatterns[(i%len(runPatterns)+len(runPatterns))%len(runPatterns)]
		run, _ := matchRun(p)
		if got, want := run(s), regexp.MustCompile(p).MatchString(s); got != want {
			t.Errorf("%q on %q: %v, regexp says %v", p, s, got, want)
		}
	})
}
