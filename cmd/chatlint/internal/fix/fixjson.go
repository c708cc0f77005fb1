package fix

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"

	"github.com/chatlint/chatlint/engine/jsonl"
)

// A .json document (a JSON array of records, or one record) is read whole
// and fixed record by record like JSON Lines. Where it is written depends
// on the output's name: to a .json file (--in-place, or -o OUT.json) in the
// layout it came in, an array with one element per record; to any other
// file as JSON Lines, one record per line.
//
// Either way a record's content is kept exactly: its members, their order,
// their number and string text. Only white space changes: in an array
// written back, an untouched record keeps its bytes as they were (its own
// indentation), and a changed one is indented by two spaces per level, one
// level inside the array; in JSON Lines each record is made compact.

// docLayout is how the output of a file is laid out.
type docLayout int

const (
	layoutLines   docLayout = iota // JSON Lines, records as they come
	layoutCompact                  // JSON Lines from a .json document: each record made one line
	layoutArray                    // a JSON array of records
	layoutObject                   // the one record of a .json document that held a single object
)

// jsonLayout decides the output layout of a file from its first job: the
// records of a .json document (read whole, so a record has no line ending)
// are written as an array or object to a .json destination, compact
// elsewhere. A .json file holding several values one per line was read as
// JSON Lines and is written as it came.
func jsonLayout(name, dest string, first jsonl.Record) docLayout {
	if !jsonl.IsJSONDocument(name) || first.End != "" {
		return layoutLines
	}
	if !strings.EqualFold(filepath.Ext(dest), ".json") {
		return layoutCompact
	}
	if firstByte(name) == '[' {
		return layoutArray
	}
	return layoutObject
}

// firstByte returns the first byte of a file after a byte-order mark and
// white space, or 0.
func firstByte(path string) byte {
	f, err := os.Open(path)
	if err != nil {
		return 0
	}
	defer f.Close()
	r := bufio.NewReader(f)
	bom := true
	for {
		b, err := r.ReadByte()
		if err != nil {
			return 0
		}
		switch {
		case bom && b == 0xEF:
			r.Discard(2)
		case b == ' ' || b == '\t' || b == '\r' || b == '\n':
		default:
			return b
		}
		bom = false
	}
}

// setLayout decides the layout from the file's first job with records
// (before any action dropped some: a document whose records all go is
// still written as an empty array).
func (c *fileOut) setLayout(first jsonl.Record) {
	if !c.laidOut && c.out != nil {
		c.layout, c.laidOut = jsonLayout(c.name, c.out.path, first), true
	}
}

// writeRecord writes one output record in the file's layout.
func (c *fileOut) writeRecord(r jsonl.Record, changed bool) {
	c.records++
	switch c.layout {
	case layoutLines:
		c.out.write(r.Data)
		c.out.writeString(r.End)
	case layoutCompact:
		c.out.write(compact(r.Data), []byte{'\n'})
	case layoutArray:
		if c.records == 1 {
			c.out.writeString("[\n  ")
		} else {
			c.out.writeString(",\n  ")
		}
		c.out.write(element(r.Data, changed, "  "))
	case layoutObject:
		if c.records > 1 {
			c.out.writeString("\n") // an action inserted a record: one value per line
		}
		c.out.write(element(r.Data, changed, ""))
	}
}

// closeLayout ends the file: the array's closing bracket, the last newline.
func (c *fileOut) closeLayout() {
	switch {
	case c.layout == layoutArray && c.records > 0:
		c.out.writeString("\n]\n")
	case c.layout == layoutArray || c.layout == layoutObject && c.records == 0:
		c.out.writeString("[]\n")
	case c.layout == layoutObject:
		c.out.writeString("\n")
	}
}

// compact makes a record one line; its content stays as it is.
func compact(data []byte) []byte {
	if !bytes.ContainsAny(data, "\r\n") {
		return data
	}
	var b bytes.Buffer
	if err := json.Compact(&b, data); err != nil {
		return data
	}
	return b.Bytes()
}

// element is a record as an element of a written .json document: as it
// was when untouched, indented when a rule changed it.
func element(data []byte, changed bool, prefix string) []byte {
	if !changed {
		return bytes.TrimSpace(data)
	}
	var b bytes.Buffer
	if err := json.Indent(&b, data, prefix, "  "); err != nil {
		return data
	}
	return b.Bytes()
}
