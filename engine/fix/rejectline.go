package fix

import (
	"bytes"
	"encoding/json"
)

// RejectLine is one line of a rejects file (with its newline): where the
// piece came from (file, source line, record id), which rule dropped it and
// why, and the piece itself as it was, under "data". `chatlint fix` and the
// Beam pipeline's --fix write the same lines.
func RejectLine(file, id string, r Reject) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false) // "<stdin>" as is
	enc.Encode(struct {
		File   string `json:"file"`
		Line   int    `json:"line"`
		Record string `json:"record"`
		Rule   string `json:"rule"`
		Reason string `json:"reason"`
		Op     string `json:"op"`
		Target string `json:"target,omitempty"`
	}{file, r.Line, id, r.Rule, r.Reason, r.Op, r.Target})
	buf.Truncate(buf.Len() - 2) // "}\n"
	buf.WriteString(`,"data":`)
	buf.Write(r.Data)
	buf.WriteString("}\n")
	return buf.Bytes()
}
