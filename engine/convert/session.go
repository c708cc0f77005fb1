package convert

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strings"
	"unicode/utf8"

	"github.com/chatlint/chatlint/engine/document"
	"github.com/chatlint/chatlint/engine/jsonl"
	"github.com/chatlint/chatlint/engine/jsonv"
	"github.com/chatlint/chatlint/engine/lint"
)

// Skipped is a line of a session file that holds no entry: not JSON, or an
// entry the reference's model rejects. The reference skips it silently;
// convert reports it.
type Skipped struct {
	Line   int
	Reason string
}

func (s Skipped) String() string { return fmt.Sprintf("line %d skipped: %s", s.Line, s.Reason) }

// reading is what one session file holds.
type reading struct {
	entries []*Entry
	skipped []Skipped
	// lines counts the lines that are not blank.
	lines int
	// format is the format check detects for the file (from its first line
	// that is a JSON object), "" when no line is one or it fits no format.
	format document.Format
}

// newLineReader reads lines as the reference does: every line (blank ones
// too, they count in line numbers), universal newlines, no bound on a line.
func newLineReader(r io.Reader) *jsonl.Reader {
	rd := jsonl.NewReader(r)
	rd.SetSplit(jsonl.SplitUniversal)
	rd.SetKeepBlank(true)
	rd.SetMaxLineSize(math.MaxInt)
	return rd
}

// readLines parses the lines of one session file.
func readLines(lines []jsonl.Record) reading {
	var r reading
	st := &lineState{}
	for _, l := range lines {
		// The line as read, less its terminator: Data lacks a leading
		// byte-order mark, which Python's json rejects.
		raw := l.Raw[:len(l.Raw)-len(l.End)]
		e, skip := parseLine(l.Line, raw, st)
		switch {
		case e != nil:
			r.entries = append(r.entries, e)
			r.lines++
		case skip != "":
			r.skipped = append(r.skipped, Skipped{l.Line, skip})
			r.lines++
		}
	}
	r.format = st.format
	return r
}

// lineState is what reading a line needs of the lines before it.
type lineState struct {
	detected bool
	format   document.Format
}

// parseLine returns the entry of one line, or why it has none ("" for a
// blank line).
func parseLine(line int, raw []byte, st *lineState) (*Entry, string) {
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
	a := adapterLine{data: []byte(s)}
	if _, isObj := v.(*jsonv.Object); isObj && !st.detected {
		// The detection check's reader runs, on the same first object.
		var ok bool
		st.format, _, _, ok = lint.Detect("", jsonl.Record{Line: line, Data: a.data})
		st.detected = ok
	}
	e, err := parseEntry(line, v)
	if err != nil {
		// A layout the reference does not read (the request under
		// request.body) is read where check's proxy-log adapter reads it.
		if view := a.gatewayView(v); view != nil {
			if ge, gerr := parseEntry(line, view); gerr == nil {
				e, err = ge, nil
			}
		}
	}
	if err != nil {
		why := "not a log entry: " + err.Error()
		if req, _ := get(asObject(v), "request").(*jsonv.Object); req != nil && get(req, "messages") == nil {
			if _, ok := req.Get("body"); ok {
				why = "not a log entry: neither request.messages nor request.body.messages is a list"
			}
		}
		if st := a.status(); st >= 400 {
			why += fmt.Sprintf(" (HTTP status %d)", st)
		}
		return nil, why
	}
	e.Status = a.status()
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

func asObject(v jsonv.Value) *jsonv.Object {
	o, _ := v.(*jsonv.Object)
	return o
}
