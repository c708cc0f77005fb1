package convert

import (
	"regexp"
	"strings"
)

var (
	unixNsSuffix = regexp.MustCompile(`^(.+)-\p{Nd}{19}$`)
	uuidSuffix   = regexp.MustCompile(`^(?i)(.+)-[0-9a-f]{8}(?:-[0-9a-f]{4}){3}-[0-9a-f]{12}$`)
)

// scenarioName is the stable name of a session file, shared by the files of
// one scenario: the file stem without the suffixes a session logger appends
// — a 19-digit -<unix_ns>, a -<uuid>, and a short -NN prompt number (1 to 6
// digits, when the part before it is not a number too, so dates stay) — up
// to three rounds, so that google-maps-es-01-<uuid> becomes google-maps-es.
func scenarioName(file string) string {
	name := file[strings.LastIndexByte(file, '/')+1:]
	stem := name
	if i := strings.LastIndexByte(name, '.'); i > 0 && i < len(name)-1 {
		stem = name[:i]
	}
	for range 3 {
		next := stripNumber(stripGenerated(stem))
		if next == stem {
			break
		}
		stem = next
	}
	return stem
}

func stripGenerated(s string) string {
	if m := unixNsSuffix.FindStringSubmatch(s); m != nil {
		return m[1]
	}
	if m := uuidSuffix.FindStringSubmatch(s); m != nil {
		return m[1]
	}
	return s
}

func stripNumber(s string) string {
	parts := strings.Split(s, "-")
	if len(parts) < 3 {
		return s
	}
	last, prev := parts[len(parts)-1], parts[len(parts)-2]
	if n := len([]rune(last)); n >= 1 && n <= 6 && isDigits(last) && !isDigits(prev) {
		if p := strings.Join(parts[:len(parts)-1], "-"); p != "" {
			return p
		}
	}
	return s
}

// isDigits is Python's str.isdigit: not empty, every character a digit.
func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if !isPyDigit(r) {
			return false
		}
	}
	return true
}

// outputName is a scenario made safe as a file name: runs of characters
// other than A-Z a-z 0-9 . _ - become "_", the ends lose . _ - and spaces, at
// most 120 characters; "scenario" when nothing is left.
func outputName(scenario string) string {
	var b strings.Builder
	run := false
	for _, r := range scenario {
		if r < 128 && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' || r == '_' || r == '-') {
			b.WriteRune(r)
			run = false
		} else if !run {
			b.WriteByte('_')
			run = true
		}
	}
	s := strings.Trim(b.String(), "._- ")
	if len(s) > 120 {
		s = s[:120]
	}
	if s == "" {
		return "scenario"
	}
	return s
}
