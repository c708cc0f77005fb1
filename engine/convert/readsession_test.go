package convert

import (
	"bytes"

	"github.com/chatlint/chatlint/engine/jsonl"
)

// parseSession reads the entries of one session file. Lines end at \n, \r\n
// or \r, as jsonl.SplitUniversal splits them (the reference reads in
// universal-newline mode, so line numbers count all three); white space around a line is stripped and blank lines
// are skipped.
func parseSession(data []byte) ([]*Entry, []Skipped) {
	r := readSession(data)
	return r.entries, r.skipped
}

// readSession reads a session file held in memory, with the reader the
// runner reads the files of a run with.
func readSession(data []byte) reading {
	rd := newLineReader(bytes.NewReader(data))
	var lines []jsonl.Record
	for {
		rec, err := rd.Next()
		if err != nil { // io.EOF: a bytes.Reader fails in no other way and no line is over the bound
			break
		}
		lines = append(lines, rec)
	}
	return readLines(lines)
}
