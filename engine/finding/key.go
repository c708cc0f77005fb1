package finding

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"strconv"
	"strings"
)

// Key identifies a finding across runs without its line number, so a
// baseline still matches after records move: the rule, the record (its id,
// or a hash of its content for records without one), the message index and
// the JSON Pointer. record is that record identity; pass f.Record when no
// better one is known. The file is part of the key so that the same record
// copied into two files counts twice.
func Key(f Finding, record string) string {
	var b strings.Builder
	b.WriteString(f.Rule)
	b.WriteByte(0)
	b.WriteString(f.File)
	b.WriteByte(0)
	b.WriteString(record)
	b.WriteByte(0)
	if f.MessageIndex != nil {
		b.WriteString(strconv.Itoa(*f.MessageIndex))
	}
	b.WriteByte(0)
	b.WriteString(f.Path)
	sum := sha256.Sum256([]byte(b.String()))
	return hex.EncodeToString(sum[:16])
}

// Identity is the record part of the finding's key as far as the finding
// knows it: RecordHash for a record without an id, else Record.
func (f Finding) Identity() string {
	if f.RecordHash != "" {
		return f.RecordHash
	}
	return f.Record
}

// HashRecord is the content identity of a record: "sha256:" and 32 hex digits
// of its bytes without the blanks and line ending after them. For a line of a
// JSON Lines file that is the line as written; for an element of a .json array,
// the element.
func HashRecord(raw []byte) string {
	return RecordHashOf(sha256.Sum256(bytes.TrimRight(raw, "\r\n \t")))
}

// RecordHashOf writes a SHA-256 the way HashRecord does, for a record hashed
// elsewhere as it streamed by (a line too long to keep).
func RecordHashOf(sum [sha256.Size]byte) string {
	return "sha256:" + hex.EncodeToString(sum[:16])
}

// FallbackLine returns the line of a record identity that is only file:line
// (a record without an id), or the finding's own line when it has no record
// (a line that is not JSON); false when the record has an id.
func FallbackLine(f Finding) (int, bool) {
	if f.Record == "" {
		return f.Line, f.Line > 0
	}
	rest, ok := strings.CutPrefix(f.Record, f.File+":")
	if !ok {
		return 0, false
	}
	n, err := strconv.Atoi(rest)
	return n, err == nil && n > 0
}
