package convert

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/chatlint/chatlint/engine/lines"
)

// Skipped is a line of a session file that holds no entry: not JSON, or an
// entry the reference's model rejects. The reference skips it silently;
// convert reports it.
type Skipped struct {
	Line   int
	Reason string
}

func (s Skipped) String() string { return fmt.Sprintf("line %d skipped: %s", s.Line, s.Reason) }

// parseSession reads the entries of one session file. Lines end at \n, \r\n
// or \r, as engine/lines splits them (the reference reads in
// universal-newline mode, so line numbers count all three); white space around a line is stripped and blank lines
// are skipped.
func parseSession(data []byte) ([]*Entry, []Skipped) {
	var entries []*Entry
	var skipped []Skipped
	line := 0
	for len(data) > 0 {
		line++
		var raw []byte
		raw, data = lines.Cut(data)
		e, skip := parseLine(line, raw)
		switch {
		case e != nil:
			entries = append(entries, e)
		case skip != "":
			skipped = append(skipped, Skipped{line, skip})
		}
	}
	return entries, skipped
}

// parseLine returns the entry of one line, or why it has none ("" for a
// blank line).
func parseLine(line int, raw []byte) (*Entry, string) {
	if !utf8.Valid(raw) {
		return nil, "not UTF-8 text"
	}
	s := pyStrip(string(raw))
	if s == "" {
		return nil, ""
	}
	v, err := decodePython([]byte(s))
	if err != nil {
		return nil, "invalid JSON: " + syntaxError(s, err)
	}
	e, err := parseEntry(line, v)
	if err != nil {
		return nil, "not a log entry: " + err.Error()
	}
	return e, ""
}

// syntaxError words why a line is not JSON, with the position of the
// error: the streaming decoder's positions are approximate, so the line is
// parsed again the plain way (this happens only for broken lines).
func syntaxError(line string, err error) string {
	var se *json.SyntaxError
	if e := json.Unmarshal([]byte(line), new(any)); errors.As(e, &se) {
		return fmt.Sprintf("%s (byte %d)", se.Error(), se.Offset)
	}
	if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
		return "unexpected end of the line"
	}
	return strings.TrimPrefix(err.Error(), "jsonv: ")
}
