package jsonl

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"unicode/utf8"
)

// SniffSize is how much of a file Sniff looks at.
const SniffSize = 64 << 10

// Kind is what the head of a file says it is.
type Kind int

const (
	// Lines: the file may be JSON Lines (broken lines are reported one by
	// one, as JSON Lines with errors).
	Lines Kind = iota
	// Binary: the file is not text (a Parquet file, an archive, ...).
	Binary
	// Text: text in which no line, or too few, is JSON (Markdown, a log).
	Text
	// MaybeDocument: the first line opens a JSON value it does not close:
	// the file may be one pretty-printed JSON document, which only reading
	// it whole tells (see Document).
	MaybeDocument
)

// Sniffed is what Sniff found: the kind, and for Binary and Text what the
// file is, in words for a finding ("a Parquet file (binary)").
type Sniffed struct {
	Kind Kind
	What string
}

// magics name the binary files people hand to a JSONL tool by mistake, by
// their leading bytes.
var magics = []struct {
	prefix, what string
}{
	{"PAR1", "a Parquet file (binary; export it to JSON Lines first, e.g. with pandas or DuckDB)"},
	{"\x1f\x8b", "a gzip-compressed file (binary; decompress it first)"},
	{"PK\x03\x04", "a ZIP archive (binary; extract it first)"},
	{"\x28\xb5\x2f\xfd", "a zstd-compressed file (binary; decompress it first)"},
	{"BZh", "a bzip2-compressed file (binary; decompress it first)"},
	{"SQLite format 3\x00", "an SQLite database (binary)"},
	{"ARROW1", "an Arrow IPC file (binary)"},
	{"%PDF", "a PDF document"},
	{"\x89PNG", "a PNG image"},
}

// Sniff tells from head, the first SniffSize bytes of a file (all of it when
// eof), whether the file is something other than JSON Lines, so that a
// reader reports it once instead of once per line, and a command that
// rewrites files refuses it. name, when it has an extension, helps word it.
func Sniff(name string, head []byte, eof bool) Sniffed {
	head = bytes.TrimPrefix(head, bom)
	for _, m := range magics {
		if bytes.HasPrefix(head, []byte(m.prefix)) {
			return Sniffed{Binary, m.what}
		}
	}
	trimmed := bytes.TrimLeft(head, " \t\r\n")
	if len(trimmed) == 0 {
		return Sniffed{Kind: Lines}
	}
	first, _, complete := bytes.Cut(trimmed, []byte{'\n'})
	first = bytes.TrimRight(first, " \t\r")
	if c := trimmed[0]; c == '{' || c == '[' {
		if (complete || eof) && !json.Valid(first) {
			return Sniffed{Kind: MaybeDocument}
		}
		return Sniffed{Kind: Lines}
	}
	// Not JSON Lines unless most of its lines are JSON: a JSONL file with a
	// stray first line, or with a line of NUL bytes a crash left, is JSON
	// Lines with a broken line, which repair exists to drop.
	lines, valid, cut := 0, 0, false
	rest := trimmed
	for len(rest) > 0 {
		line, after, found := bytes.Cut(rest, []byte{'\n'})
		if !found && !eof {
			cut = true // cut by the head's end
			break
		}
		rest = after
		line = bytes.TrimSpace(line)
		if len(line) == 0 {
			continue
		}
		lines++
		if (line[0] == '{' || line[0] == '[') && json.Valid(line) {
			valid++
		}
	}
	if valid > 0 && 2*valid >= lines || cut && lines < 3 {
		// Mostly JSON; or too few whole lines in the head to tell (a
		// broken line before a record longer than the head).
		return Sniffed{Kind: Lines}
	}
	if bytes.IndexByte(head, 0) >= 0 || !validUTF8Head(head, eof) {
		return Sniffed{Binary, "a binary file (it holds NUL bytes or bytes that are not UTF-8)"}
	}
	return Sniffed{Text, describeText(name, trimmed)}
}

// validUTF8Head reports whether head is UTF-8, allowing a rune cut by the
// head's end.
func validUTF8Head(head []byte, eof bool) bool {
	if utf8.Valid(head) {
		return true
	}
	if eof {
		return false
	}
	for cut := 1; cut < utf8.UTFMax && cut <= len(head); cut++ {
		if utf8.Valid(head[:len(head)-cut]) {
			return true
		}
	}
	return false
}

// describeText names text that is not JSON Lines: Markdown by its name or
// its marks (headings, fences, lists, tables), else plain text.
func describeText(name string, text []byte) string {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".md", ".markdown", ".mdx":
		return "a Markdown document, not JSON Lines"
	case ".yaml", ".yml":
		return "a YAML document, not JSON Lines"
	case ".csv", ".tsv":
		return "a CSV/TSV table, not JSON Lines"
	}
	for _, l := range strings.SplitN(string(text), "\n", 64) {
		l = strings.TrimSpace(l)
		for _, mark := range []string{"# ", "## ", "### ", "```", "---", "| ", "**"} {
			if strings.HasPrefix(l, mark) {
				return "a Markdown document, not JSON Lines"
			}
		}
	}
	return "text, not JSON Lines (no line near its start is a JSON object)"
}

// Document reports whether data, a whole file, is one JSON value spanning
// several lines (a pretty-printed document), and if so words it: "one
// pretty-printed JSON object (keys: a, b)" or "one pretty-printed JSON
// array of 3 elements".
func Document(data []byte) (string, bool) {
	data = bytes.TrimPrefix(data, bom)
	dec := json.NewDecoder(bytes.NewReader(data))
	var v json.RawMessage
	if err := dec.Decode(&v); err != nil || trailing(data, dec) >= 0 || bytes.IndexByte(v, '\n') < 0 {
		return "", false
	}
	var obj map[string]json.RawMessage
	var arr []json.RawMessage
	switch {
	case json.Unmarshal(v, &obj) == nil && obj != nil:
		keys := make([]string, 0, len(obj))
		for k := range obj {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		if len(keys) > 8 {
			keys = append(keys[:8], "…")
		}
		return fmt.Sprintf("one pretty-printed JSON object (keys: %s)", strings.Join(keys, ", ")), true
	case json.Unmarshal(v, &arr) == nil:
		return fmt.Sprintf("one pretty-printed JSON array of %d elements", len(arr)), true
	}
	return "", false
}
