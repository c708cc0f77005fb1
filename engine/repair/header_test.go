package repair

import (
	"testing"

	"github.com/chatlint/chatlint/engine/document"
)

// The header rule is the adapters' (document.Adapter.Header): a forced
// format without one never requires a header, a forced format with one
// requires its header, and detection finds the format from the first
// records.
func TestHeaderOK(t *testing.T) {
	const (
		hdr     = `{"type":"session","id":"s1"}`
		noID    = `{"type":"session","id":""}`
		entry   = `{"type":"message","message":{"role":"user","content":"hi"}}`
		chatRec = `{"messages":[{"role":"user","content":"hi"}]}`
		damaged = `{"type":"Session","id":"s1"}`
	)
	for _, tc := range []struct {
		name   string
		first  string
		next   []string
		forced document.Format
		want   bool
	}{
		{"detected header", hdr, nil, "", true},
		{"detected header without id", noID, nil, "", false},
		{"transcript entry first", entry, nil, "", false},
		{"chat record", chatRec, []string{entry}, "", true},
		{"damaged header, entries after it", damaged, []string{chatRec, entry}, "", false},
		{"damaged header alone", damaged, []string{chatRec}, "", true},
		{"not an object, entries after it", `"session"`, []string{entry}, "", false},
		{"not an object, the header after it", `"session"`, []string{hdr, entry}, "", false},
		{"not an object, chat records after it", `42`, []string{chatRec, chatRec}, "", true},
		{"no known format, the header after it", `{"x":1}`, []string{hdr}, "", false},
		{"forced chat: an entry first is fine", entry, nil, document.Chat, true},
		{"forced claude-code: no header to require", noID, nil, document.ClaudeCode, true},
		{"forced pi-session: header", hdr, nil, document.PiSession, true},
		{"forced pi-session: chat record first", chatRec, nil, document.PiSession, false},
		{"forced pi-session: not an object", `"session"`, nil, document.PiSession, false},
		{"forced pi-session: header without id", noID, nil, document.PiSession, false},
	} {
		var next [][]byte
		for _, n := range tc.next {
			next = append(next, []byte(n))
		}
		if got := headerOK([]byte(tc.first), next, tc.forced); got != tc.want {
			t.Errorf("%s: headerOK = %v, want %v", tc.name, got, tc.want)
		}
	}
}
