package report

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Text a dataset controls (a tool name, a quoted value, a file name) reaches
// the terminal and CI logs through rule messages. Escaping its control
// characters keeps a record from clearing the screen, moving the cursor or
// forging report lines; capping long values keeps one record from flooding
// the output.
const (
	maxQuoted  = 100  // runes of a "quoted" value
	maxToken   = 200  // runes of a bare token, such as a JSON Pointer
	maxMessage = 2000 // runes of a whole message
)

// Clean makes a message safe to print: long quoted values and tokens are
// shortened, the whole is capped, and control characters are escaped.
func Clean(s string) string {
	return escapeControls(capRunes(shorten(s), maxMessage))
}

// escapeControls writes C0 and C1 control characters, DEL, line and
// paragraph separators, bidirectional overrides and invalid UTF-8 as Go
// escapes (\n, \x1b, \u202e).
//
// It also defuses the GitHub Actions runner's workflow commands, which need
// no control character: the runner takes a log line that starts with "::"
// after its leading white space (any Unicode space) as a command (ActionCommand.TryParseV2),
// and "##[" anywhere in a line as an old-style one (TryParse). A value that
// opens with "::" may be printed first on its line (a file name in check's
// text output), so its first colon is written \x3a; the "[" of "##[" is
// written \x5b. Either way the runner sees text, not "::error file=…::".
func escapeControls(s string) string {
	if !needsEscape(s) {
		return s
	}
	var b strings.Builder
	lead := len(s) - len(strings.TrimLeftFunc(s, unicode.IsSpace))
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case i == lead && strings.HasPrefix(s[i:], "::"):
			b.WriteString(`\x3a`)
		case r == '[' && i >= 2 && s[i-2:i] == "##":
			b.WriteString(`\x5b`)
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case unsafeRune(r) && r < 0x100:
			fmt.Fprintf(&b, `\x%02x`, r)
		case unsafeRune(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

func needsEscape(s string) bool {
	if strings.HasPrefix(strings.TrimLeftFunc(s, unicode.IsSpace), "::") || strings.Contains(s, "##[") {
		return true
	}
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if (r == utf8.RuneError && size == 1) || unsafeRune(r) {
			return true
		}
		i += size
	}
	return false
}

func unsafeRune(r rune) bool {
	return r < 0x20 || r == 0x7f || (r >= 0x80 && r <= 0x9f) ||
		r == 0x2028 || r == 0x2029 || (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069)
}

// shorten cuts each "double-quoted" value longer than maxQuoted runes and
// each run of non-space characters longer than maxToken runes, marking the
// cut with an ellipsis.
func shorten(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		switch {
		case s[i] == '"':
			end := closingQuote(s, i)
			b.WriteString(capQuoted(s[i:end]))
			i = end
		case s[i] == ' ':
			b.WriteByte(' ')
			i++
		default:
			end := i
			for end < len(s) && s[end] != ' ' && s[end] != '"' {
				end++
			}
			b.WriteString(capRunes(s[i:end], maxToken))
			i = end
		}
	}
	return b.String()
}

// closingQuote returns the index just past the quote closing the one at i
// (backslash escapes skipped), or len(s).
func closingQuote(s string, i int) int {
	for j := i + 1; j < len(s); j++ {
		switch s[j] {
		case '\\':
			j++
		case '"':
			return j + 1
		}
	}
	return len(s)
}

func capQuoted(q string) string {
	if utf8.RuneCountInString(q) <= maxQuoted+2 {
		return q
	}
	return capRunes(q, maxQuoted+1) + `"`
}

// capRunes keeps the first n runes of s, with "…" when it cut.
func capRunes(s string, n int) string {
	if len(s) <= n || utf8.RuneCountInString(s) <= n {
		return s
	}
	i := 0
	for k := 0; k < n-1; k++ {
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
	}
	return s[:i] + "…"
}
