package convert

import (
	"fmt"

	"github.com/chatlint/chatlint/engine/document"
)

// SessionError is a session whose entries cannot be one conversation: the
// reference aborts the whole run on it.
type SessionError struct {
	Problem   string // "Session ID mismatch", "Timestamp not increasing", "Timestamps not comparable"
	Entry     int    // 1-based among the session's entries
	SessionID string // of that entry
	File      string
	Line      int // the entry's line in the file
}

func (e *SessionError) Error() string {
	return fmt.Sprintf("%s at entry %d (session=%s, file=%s)", e.Problem, e.Entry, e.SessionID, e.File)
}

// Truncation says that a session was cut after its last longest entry.
type Truncation struct {
	Last      int // 1-based number of the last entry
	LastCount int // its request message count
	Max       int // the session's largest request message count
	Kept      int // 1-based number of the last entry kept
}

func (t Truncation) String() string {
	return fmt.Sprintf("Last entry %d message count (%d) below max (%d); using entry %d instead", t.Last, t.LastCount, t.Max, t.Kept)
}

// validateSession checks that the entries are one session (one session_id,
// strictly increasing timestamps) and keeps the entries
// document.ProxyLogSelection keeps: up to the last entry with the most
// request messages, since a trailing shorter entry (a side request such as a
// title) is not the conversation's latest state.
func validateSession(entries []*Entry, file string) ([]*Entry, *Truncation, error) {
	first := entries[0].SessionID
	for i, e := range entries {
		if e.SessionID != first {
			return nil, nil, &SessionError{"Session ID mismatch", i + 1, e.SessionID, file, e.Line}
		}
	}
	for i := 1; i < len(entries); i++ {
		c, ok := entries[i].Time.Compare(entries[i-1].Time)
		if !ok {
			return nil, nil, &SessionError{"Timestamps not comparable", i + 1, entries[i].SessionID, file, entries[i].Line}
		}
		if c <= 0 {
			return nil, nil, &SessionError{"Timestamp not increasing", i + 1, entries[i].SessionID, file, entries[i].Line}
		}
	}
	// Which entries are kept is the proxy-log adapter's decision, as check
	// makes it.
	var sel document.ProxyLogSelection
	for _, e := range entries {
		sel.Add(len(e.Messages))
	}
	if sel.Truncated() {
		last := len(entries) - 1
		return entries[:sel.Kept()], &Truncation{Last: last + 1, LastCount: len(entries[last].Messages), Max: sel.Max(), Kept: sel.Kept()}, nil
	}
	return entries, nil, nil
}
