package document

import "sync"

// fromRecord reads a record's messages into a slice of message structs
// (232 bytes each) that nothing holds once the document is built: the
// terms built from them keep no pointer into it. Allocating it per record
// was a fifth of the bytes a chat document costs under the default packs,
// so the slices are recycled.

// maxPooledMessages bounds the slices kept: one record with a huge
// conversation should not make every pooled slice huge.
const maxPooledMessages = 1024

var messageSlices = sync.Pool{New: func() any { return new([]message) }}

// getMessages returns an empty slice with room for n messages, and the
// pool entry to give it back with putMessages.
func getMessages(n int) (*[]message, []message) {
	p := messageSlices.Get().(*[]message)
	if cap(*p) < n {
		*p = make([]message, 0, n)
	}
	return p, (*p)[:0]
}

// putMessages gives ms back once the document is built. Its messages are
// zeroed first: they point into the record and its terms (m.calls is the
// slice a messages array holds), which must neither stay pinned nor be
// appended to by the next record.
func putMessages(p *[]message, ms []message) {
	if cap(ms) > maxPooledMessages {
		return
	}
	clear(ms)
	*p = ms[:0]
	messageSlices.Put(p)
}
