package finding

import (
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
