package convert

import (
	"crypto/rand"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/chatlint/chatlint/engine/jsonv"
)

// anonymizer replaces every e-mail address in the strings of one record by a
// random 16-character [a-z0-9] local part at the lower-cased domain; the same
// address (ignoring case) gets the same replacement within the record.
type anonymizer struct {
	rand    io.Reader
	mapping map[string]string
	used    map[string]bool
}

func newAnonymizer(r io.Reader) *anonymizer {
	if r == nil {
		r = rand.Reader
	}
	return &anonymizer{rand: r, mapping: map[string]string{}, used: map[string]bool{}}
}

// scrub rewrites every string value (not keys) of v in place and returns v.
func (a *anonymizer) scrub(v jsonv.Value) jsonv.Value {
	switch t := v.(type) {
	case string:
		return a.text(t)
	case []jsonv.Value:
		for i, e := range t {
			t[i] = a.scrub(e)
		}
	case *jsonv.Object:
		for i := range t.Members {
			t.Members[i].Value = a.scrub(t.Members[i].Value)
		}
	}
	return v
}

func (a *anonymizer) text(s string) string {
	if !strings.Contains(s, "@") {
		return s
	}
	var b strings.Builder
	last := 0
	for i := 0; i < len(s); {
		end := matchEmail(s, i)
		if end < 0 {
			_, n := utf8.DecodeRuneInString(s[i:])
			i += n
			continue
		}
		b.WriteString(s[last:i])
		b.WriteString(a.replace(s[i:end]))
		last, i = end, end
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

func (a *anonymizer) replace(email string) string {
	key := strings.ToLower(email)
	if r, ok := a.mapping[key]; ok {
		return r
	}
	domain := key[strings.IndexByte(key, '@')+1:]
	r := a.local() + "@" + domain
	a.mapping[key] = r
	return r
}

const localAlphabet = "abcdefghijklmnopqrstuvwxyz0123456789"

func (a *anonymizer) local() string {
	for {
		var buf [16]byte
		out := make([]byte, 16)
		for i := 0; i < 16; {
			if _, err := io.ReadFull(a.rand, buf[:]); err != nil {
				panic("convert: no randomness: " + err.Error())
			}
			for _, c := range buf {
				if c < 252 && i < 16 { // 252 = 7*36: no modulo bias
					out[i] = localAlphabet[int(c)%36]
					i++
				}
			}
		}
		if s := string(out); !a.used[s] {
			a.used[s] = true
			return s
		}
	}
}

// matchEmail returns the end of the e-mail address that starts at i, or -1.
// It matches what the reference's (?i)\b[a-z0-9._%+\-]+@[a-z0-9.\-]+\.[a-z]{2,}\b
// matches in Python, where \b is a Unicode word boundary (Go's is ASCII-only,
// so the expression is walked by hand): the local part is the whole run of
// local characters before the @, and the domain the longest prefix of the run
// of domain characters after it that ends in a dot, two letters or more, and
// a word boundary.
func matchEmail(s string, i int) int {
	if !isLocal(s[i]) || !boundary(s, i) {
		return -1
	}
	j := i
	for j < len(s) && isLocal(s[j]) {
		j++
	}
	if j >= len(s) || s[j] != '@' {
		return -1
	}
	d := j + 1
	k := d
	for k < len(s) && isDomain(s[k]) {
		k++
	}
	// Try the last dot first (the greedy match), then earlier ones.
	for p := k - 1; p > d; p-- {
		if s[p] != '.' {
			continue
		}
		e := p + 1
		for e < k && isLetter(s[e]) {
			e++
		}
		if e-(p+1) >= 2 && boundary(s, e) {
			return e
		}
	}
	return -1
}

func isLetter(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }
func isLocal(c byte) bool {
	return isLetter(c) || c >= '0' && c <= '9' || c == '.' || c == '_' || c == '%' || c == '+' || c == '-'
}
func isDomain(c byte) bool { return isLetter(c) || c >= '0' && c <= '9' || c == '.' || c == '-' }

// boundary is Python's Unicode \b at byte offset i.
func boundary(s string, i int) bool {
	before, after := false, false
	if i > 0 {
		r, _ := utf8.DecodeLastRuneInString(s[:i])
		before = pyIsWord(r)
	}
	if i < len(s) {
		r, _ := utf8.DecodeRuneInString(s[i:])
		after = pyIsWord(r)
	}
	return before != after
}
